/**
 * Session tokens: HS256 JWTs (jose) that name a session row. The row, not the
 * token, decides whether the session is alive; the token only proves the id.
 */
import { readOrCreateSecretFile } from '../secret_file.ts';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'legal-mail-portal';

/** Signs a token for a session that ends at `expiresAt`. */
export function signSessionToken(key: Uint8Array, s: { sessionId: string; userId: string; expiresAt: Date }) {
  return new SignJWT({ sid: s.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(s.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(s.expiresAt.getTime() / 1000))
    .sign(key);
}

/** The session id a valid token names, or undefined for anything else. */
export async function verifySessionToken(key: Uint8Array, token: string): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
    return typeof payload.sid === 'string' ? payload.sid : undefined;
  } catch {
    return undefined;
  }
}

/** The signing key: SESSION_SECRET, or a secret generated once and kept in the data folder. */
export async function loadSigningKey(secret: string | undefined, dataDir: string): Promise<Uint8Array> {
  if (secret) return new TextEncoder().encode(secret);
  return await readOrCreateSecretFile(dataDir, 'session-secret');
}
