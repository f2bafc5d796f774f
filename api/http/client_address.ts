/**
 * The client's address: the socket peer's, unless that peer is a trusted proxy,
 * in which case the right-most X-Forwarded-For entry it did not add itself.
 */
import type { Context } from 'hono';
import { getConnInfo } from 'hono/deno';
import { rangeMatcher } from '../../contract/rules/ip_ranges.ts';

/** `::ffff:10.1.2.3` is an IPv4 client on a dual-stack socket: treat it as 10.1.2.3. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  return (mapped ? mapped[1] : trimmed).toLowerCase();
}

function peerAddress(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalizeAddress(address) : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Resolves the client address. X-Forwarded-For is believed only when the direct
 * peer is listed as trusted; walking from the right, the first address that is
 * not itself a trusted proxy is the client.
 */
export function clientAddress(c: Context, isTrustedProxy: (address: string) => boolean): string {
  const peer = peerAddress(c);
  if (!isTrustedProxy(peer)) return peer;
  const forwarded = (c.req.header('x-forwarded-for') ?? '').split(',').map(normalizeAddress).filter(Boolean);
  for (let i = forwarded.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(forwarded[i])) return forwarded[i];
  }
  return peer;
}

/** How many addresses' answers a trusted-proxy matcher keeps; past it, it starts again. */
const KNOWN_ADDRESSES = 1024;
/** The longest textual IP address (IPv6 with an IPv4 tail): a longer text's answer is not kept. */
const LONGEST_ADDRESS = 45;

/**
 * Which direct peers are trusted proxies: exact addresses and CIDR blocks (`10.0.0.5`, `10.0.0.0/24`,
 * `fd00::/8`), read by the whitelist's strict parser. An invalid entry throws, so a typo in TRUSTED_PROXIES
 * stops start-up instead of silently trusting nobody, or somebody else.
 *
 * Every request asks it two or three times (the request log's id, the client address, the X-Forwarded-For entry)
 * about the same few addresses (the proxy's, the client's), and the parser's exact arithmetic on BigInts cost the
 * API 6–7 of its 46 µs a request on `/api/health/live` (bench:stream BENCH_HANDLING). The entries never change
 * while the process runs, so each address's answer is kept, for a bounded number of addresses.
 */
export function trustedProxyMatcher(entries: readonly string[]): (address: string) => boolean {
  const matches = rangeMatcher(entries, 'TRUSTED_PROXIES entry');
  const known = new Map<string, boolean>();
  return (address) => {
    if (address.length > LONGEST_ADDRESS) return matches(address);
    let trusted = known.get(address);
    if (trusted === undefined) {
      if (known.size >= KNOWN_ADDRESSES) known.clear();
      trusted = matches(address);
      known.set(address, trusted);
    }
    return trusted;
  };
}
