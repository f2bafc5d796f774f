/**
 * A per-process memo of session tokens whose signature was already checked, so the guard verifies each token's
 * HMAC once instead of on every request (about 0.1–0.15 ms of this process's only thread each time, measured
 * under bench:latency's load).
 *
 * Only a pure computation is remembered: "this exact string carries a valid signature by this key and names
 * this session id until its `exp`". Nothing about the session itself is cached: the guard still reads the
 * session row on every request, so logout, revocation, deactivation and the idle limit act at once, on this
 * instance and every other. A token past its `exp` is verified again (and refused) as before. A new
 * SESSION_SECRET needs a restart, which empties the memo.
 */
import { decodeJwt } from 'jose';
import { verifySessionToken } from '../domain/tokens.ts';

/**
 * 10,000 tokens: far more than one instance's signed-in users at once, and at most a few MB (a token is about
 * 300 bytes). Past it the oldest entry goes: a forgotten token is merely verified again.
 */
const MAX_ENTRIES = 10_000;

interface Verified {
  sessionId: string;
  /** The token's own `exp`, in ms. */
  expiresAt: number;
}

/** One memo per signing key (tests build apps with different keys in one process). */
const memos = new WeakMap<Uint8Array, Map<string, Verified>>();

/**
 * The session id a valid token names, or undefined: verifySessionToken, remembered per token until its expiry.
 * `previous` (SESSION_SECRET_PREVIOUS, a rotation): a token it signed is accepted too, until its own expiry.
 */
export async function verifiedSessionId(
  key: Uint8Array,
  token: string,
  previous?: Uint8Array,
): Promise<string | undefined> {
  let memo = memos.get(key);
  if (!memo) memos.set(key, memo = new Map());
  const known = memo.get(token);
  if (known && known.expiresAt > Date.now()) return known.sessionId;
  if (known) memo.delete(token);
  const sessionId = await verifySessionToken(key, token) ??
    (previous ? await verifySessionToken(previous, token) : undefined);
  if (!sessionId) return undefined;
  const { exp } = decodeJwt(token);
  if (typeof exp === 'number') {
    if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value!);
    memo.set(token, { sessionId, expiresAt: exp * 1000 });
  }
  return sessionId;
}
