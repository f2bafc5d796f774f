/**
 * The strict IP range parser and matcher of the offender whitelist (and of TRUSTED_PROXIES). Pure, no
 * libraries: a lenient parser (inet_aton's '10.1' or '010.0.0.1' octal) would let an entry mean something
 * other than what the admin read, so anything but the forms below is refused.
 *
 * Accepted: an exact IPv4 address (dotted quad, no leading zeros), an exact IPv6 address (full, `::`
 * compressed, or with an IPv4 tail; no zone id), an IPv4 wildcard of trailing whole octets (`192.168.*`,
 * `10.*.*.*`), and a CIDR block (IPv4 /0–/32, IPv6 /0–/128). A CIDR block with host bits set
 * (`10.1.2.3/8`) is accepted and normalised to its network (`10.0.0.0/8`): the prefix says what the admin
 * meant to cover, and the canonical form shown back makes the normalisation visible.
 */

export type IpFamily = 4 | 6;

/** An entry's description: a short note, not a paragraph (the column's check says the same). */
export const DESCRIPTION_MAX = 500;

/** A parsed range: every address whose first `prefix` bits equal those of `network`. */
export interface IpRange {
  family: IpFamily;
  network: bigint;
  prefix: number;
  /** Written as an IPv4 wildcard ('192.168.*'): kept in that form when shown. */
  wildcard?: boolean;
}

const BITS: Record<IpFamily, number> = { 4: 32, 6: 128 };

const DECIMAL_OCTET = /^(0|[1-9]\d{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
const PREFIX = /^(0|[1-9]\d{0,2})$/;

/** `::ffff:0:0/96`: IPv4 addresses as an IPv6 socket reports them (RFC 4291 section 2.5.5.2). */
const MAPPED_PREFIX = 0xffffn << 32n;
const MAPPED_MASK = ~0xffff_ffffn & ((1n << 128n) - 1n);

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!DECIMAL_OCTET.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseGroups(text: string): bigint[] | undefined {
  if (text === '') return [];
  const groups: bigint[] = [];
  for (const group of text.split(':')) {
    if (!HEX_GROUP.test(group)) return undefined;
    groups.push(BigInt(`0x${group}`));
  }
  return groups;
}

function parseIpv6(text: string): bigint | undefined {
  // Zone ids (fe80::1%eth0) name an interface of one host: meaningless in a shared whitelist.
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  let head = text;
  let tail: bigint[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    // An IPv4 tail stands for the last two groups.
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = [v4 >> 16n, v4 & 0xffffn];
    head = text.slice(0, lastColon + 1);
    // 'a::' + '1.2.3.4' keeps its '::'; 'a:b:' + '1.2.3.4' drops the separator colon.
    if (!head.endsWith('::')) {
      if (!head.endsWith(':')) return undefined;
      head = head.slice(0, -1);
    }
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  let groups: bigint[];
  if (halves.length === 2) {
    const left = parseGroups(halves[0]);
    const right = parseGroups(halves[1]);
    if (!left || !right) return undefined;
    const missing = 8 - left.length - right.length - tail.length;
    // '::' stands for at least one group of zeros.
    if (missing < 1) return undefined;
    groups = [...left, ...new Array<bigint>(missing).fill(0n), ...right, ...tail];
  } else {
    const all = parseGroups(head);
    if (!all) return undefined;
    groups = [...all, ...tail];
    if (groups.length !== 8) return undefined;
  }
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

/** Parses an exact address of either family. */
export function parseAddress(text: string): { family: IpFamily; value: bigint } | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

function hostMask(family: IpFamily, prefix: number): bigint {
  return (1n << BigInt(BITS[family] - prefix)) - 1n;
}

/** An IPv6 range inside ::ffff:0:0/96 is an IPv4 range: it is stored and matched as one. */
function unmapped(range: IpRange): IpRange {
  if (range.family === 6 && range.prefix >= 96 && (range.network & MAPPED_MASK) === MAPPED_PREFIX) {
    return { family: 4, network: range.network & 0xffff_ffffn, prefix: range.prefix - 96 };
  }
  return range;
}

function parseWildcard(text: string): IpRange | undefined {
  const parts = text.split('.');
  const fixed = parts.indexOf('*');
  // At least one fixed octet (a bare '*' would open the whitelist to every IPv4 client by accident;
  // 0.0.0.0/0 says so on purpose), at most four parts, and only trailing wildcards.
  if (parts.length > 4 || fixed < 1 || parts.slice(fixed).some((p) => p !== '*')) return undefined;
  let network = 0n;
  for (const part of parts.slice(0, fixed)) {
    if (!DECIMAL_OCTET.test(part) || Number(part) > 255) return undefined;
    network = (network << 8n) | BigInt(Number(part));
  }
  const prefix = fixed * 8;
  return { family: 4, network: network << BigInt(32 - prefix), prefix, wildcard: true };
}

/** Parses one whitelist entry, or undefined when it is not one of the accepted forms. */
export function parseIpRange(input: string): IpRange | undefined {
  const text = input.trim();
  if (text === '' || text.length > 100) return undefined;
  if (text.includes('*')) return parseWildcard(text);
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const address = parseAddress(addressText);
  if (!address) return undefined;
  let prefix = BITS[address.family];
  if (slash !== -1) {
    const prefixText = text.slice(slash + 1);
    if (!PREFIX.test(prefixText)) return undefined;
    prefix = Number(prefixText);
    if (prefix > BITS[address.family]) return undefined;
  }
  const network = address.value & ~hostMask(address.family, prefix);
  return unmapped({ family: address.family, network, prefix });
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** RFC 5952: lower case, no leading zeros, the longest run (first on a tie) of two or more zero groups as '::'. */
function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The one spelling a range is stored under, so that '10.1.2.3' and '10.1.2.3/32', or '2001:DB8::1' and
 * '2001:db8:0:0:0:0:0:1', are the same entry. Wildcards keep their short form ('10.*'): the spec's own
 * format, and what the admin typed.
 */
export function formatIpRange(range: IpRange): string {
  if (range.family === 4) {
    if (range.wildcard && range.prefix % 8 === 0 && range.prefix >= 8 && range.prefix < 32) {
      return `${formatIpv4(range.network).split('.').slice(0, range.prefix / 8).join('.')}.*`;
    }
    const address = formatIpv4(range.network);
    return range.prefix === 32 ? address : `${address}/${range.prefix}`;
  }
  const address = formatIpv6(range.network);
  return range.prefix === 128 ? address : `${address}/${range.prefix}`;
}

/** The canonical form of an entry, or undefined when it is not a valid range. */
export function canonicalIpRange(input: string): string | undefined {
  const range = parseIpRange(input);
  return range ? formatIpRange(range) : undefined;
}

/** Two entries that cover exactly the same addresses ('10.*' and '10.0.0.0/8'). */
export function sameAddresses(a: IpRange, b: IpRange): boolean {
  return a.family === b.family && a.prefix === b.prefix && a.network === b.network;
}

/** A client address: an exact address, bracketed IPv6 tolerated, IPv4-mapped IPv6 read as IPv4. */
export function parseClientAddress(address: string): { family: IpFamily; value: bigint } | undefined {
  const parsed = parseAddress(address.trim().replace(/^\[(.*)\]$/, '$1'));
  if (!parsed) return undefined;
  if (parsed.family === 6 && (parsed.value & MAPPED_MASK) === MAPPED_PREFIX) {
    return { family: 4, value: parsed.value & 0xffff_ffffn };
  }
  return parsed;
}

/**
 * Whether `address` (as the socket or a trusted proxy reported it) lies in any of `ranges`. An IPv4 client
 * seen as '::ffff:10.1.2.3' is the IPv4 client 10.1.2.3; an unparseable address lies in no range.
 */
export function inAnyRange(ranges: readonly IpRange[], address: string): boolean {
  const client = parseClientAddress(address);
  if (!client) return false;
  return ranges.some((range) =>
    range.family === client.family && (client.value & ~hostMask(range.family, range.prefix)) === range.network
  );
}

/** Builds a matcher over configured entries; throws on an invalid one, so a bad configuration stops start-up. */
export function rangeMatcher(entries: readonly string[], what = 'IP range'): (address: string) => boolean {
  const ranges = entries.map((entry) => {
    const range = parseIpRange(entry);
    if (!range) throw new Error(`Invalid ${what}: ${JSON.stringify(entry)}`);
    return range;
  });
  return (address) => inAnyRange(ranges, address);
}

/**
 * Whether `address` lies in one of the stored entries. A stored entry that no longer parses admits nobody.
 */
export function inActiveRanges(activeEntries: readonly string[], address: string): boolean {
  const ranges = activeEntries.map(parseIpRange).filter((r): r is IpRange => r !== undefined);
  return inAnyRange(ranges, address);
}

/**
 * The whitelist rule: with no active entry the answer is `emptyAllows` (the entity's empty-list policy,
 * api/domain/ip_whitelist.ts); otherwise the address must lie in one of them. A stored entry that no longer
 * parses still counts as a restriction but admits nobody: fail closed.
 */
export function whitelistAllows(
  activeEntries: readonly string[],
  address: string,
  emptyAllows = true,
): boolean {
  if (activeEntries.length === 0) return emptyAllows;
  return inActiveRanges(activeEntries, address);
}
