/**
 * The strict whitelist parser and matcher (contract/rules/ip_ranges.ts), as a table, and the trusted-proxy matcher
 * built on it: no database, no HTTP.
 */
import assert from 'node:assert/strict';
import {
  canonicalIpRange,
  parseIpRange,
  rangeMatcher,
  whitelistAllows,
} from '../../contract/rules/ip_ranges.ts';
import { trustedProxyMatcher } from '../../api/http/client_address.ts';

/** Accepted entries and the canonical form each is stored under. */
const VALID: [string, string][] = [
  ['10.1.2.3', '10.1.2.3'],
  ['0.0.0.0', '0.0.0.0'],
  ['255.255.255.255', '255.255.255.255'],
  ['  192.168.0.10 ', '192.168.0.10'],
  ['10.1.2.3/32', '10.1.2.3'],
  ['10.0.0.0/8', '10.0.0.0/8'],
  ['0.0.0.0/0', '0.0.0.0/0'],
  ['10.1.2.3/8', '10.0.0.0/8'], // host bits set: normalised to the network
  ['192.168.1.77/24', '192.168.1.0/24'],
  ['192.168.*', '192.168.*'],
  ['10.*.*.*', '10.*'],
  ['192.168.1.*', '192.168.1.*'],
  ['::1', '::1'],
  ['::', '::'],
  ['2001:DB8::1', '2001:db8::1'],
  ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
  ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'], // the longer zero run is the one compressed
  ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // first run on a tie
  ['2001:db8:1:1:1:1:0:1', '2001:db8:1:1:1:1:0:1'], // a single zero group is not compressed
  ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
  ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
  ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'], // IPv4 tail
  ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
  ['::ffff:10.1.2.3', '10.1.2.3'], // IPv4-mapped: an IPv4 entry
  ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
  ['2001:db8::/32', '2001:db8::/32'],
  ['2001:db8:abcd:12::/64', '2001:db8:abcd:12::/64'],
  ['2001:db8::1/128', '2001:db8::1'],
  ['2001:db8::ff/120', '2001:db8::/120'],
  ['::/0', '::/0'],
];

/** Refused entries, with why. */
const INVALID: [string, string][] = [
  ['', 'blank'],
  ['   ', 'blank'],
  ['010.0.0.1', 'leading zero (octal in inet_aton)'],
  ['10.01.2.3', 'leading zero'],
  ['00.1.2.3', 'leading zero'],
  ['0x0a.0.0.1', 'hex octet'],
  ['0xa000001', 'hex integer'],
  ['167772161', 'integer form'],
  ['256.1.1.1', 'octet over 255'],
  ['1.2.3.256', 'octet over 255'],
  ['1.2.3', 'short form'],
  ['10.1', 'short form'],
  ['1.2.3.4.5', 'five octets'],
  ['1.2.3.', 'empty octet'],
  ['1..2.3', 'empty octet'],
  ['-1.2.3.4', 'sign'],
  ['+1.2.3.4', 'sign'],
  ['1.2. 3.4', 'inner space'],
  ['1:2:3:4:5:6:7', 'seven IPv6 groups'],
  ['1:2:3:4:5:6:7:8:9', 'nine IPv6 groups'],
  ['1::2::3', 'two ::'],
  ['1:2:3:4:5:6:7:8::', ':: standing for no group'],
  ['::1:2:3:4:5:6:7:8', ':: standing for no group'],
  [':1::', 'lone leading colon'],
  ['1::2:', 'lone trailing colon'],
  [':::', 'three colons'],
  ['12345::1', 'five hex digits'],
  ['g::1', 'not hex'],
  ['fe80::1%eth0', 'zone id'],
  ['fe80::1%1', 'zone id'],
  ['[::1]', 'brackets'],
  ['::ffff:010.1.2.3', 'leading zero in the IPv4 tail'],
  ['::1.2.3', 'short IPv4 tail'],
  ['1.2.3.4::', 'IPv4 part not at the end'],
  ['1:2:3:4:5:6:7:1.2.3.4', 'too many groups with a tail'],
  ['10.0.0.0/33', 'IPv4 prefix over 32'],
  ['2001:db8::/129', 'IPv6 prefix over 128'],
  ['10.0.0.0/', 'empty prefix'],
  ['10.0.0.0/08', 'leading zero in the prefix'],
  ['10.0.0.0/-1', 'negative prefix'],
  ['10.0.0.0/8/8', 'two prefixes'],
  ['10.0.0.0/ 8', 'space in the prefix'],
  ['10.1/16', 'short form with a prefix'],
  ['*', 'bare wildcard'],
  ['*.*.*.*', 'no fixed octet'],
  ['192.*.1.*', 'wildcard before a fixed octet'],
  ['192.168.*.5', 'wildcard before a fixed octet'],
  ['192.168.1*', 'partial-octet wildcard'],
  ['192.168.01.*', 'leading zero before a wildcard'],
  ['192.168.256.*', 'octet over 255 before a wildcard'],
  ['1.2.3.4.*', 'five parts'],
  ['192.168.*/16', 'wildcard with a prefix'],
  ['2001:db8::*', 'IPv6 wildcard'],
  ['localhost', 'a host name'],
  ['10.0.0.1-10.0.0.9', 'a dash range'],
];

Deno.test('the parser accepts each supported form and stores its canonical spelling', () => {
  for (const [input, canonical] of VALID) {
    assert.equal(
      canonicalIpRange(input),
      canonical,
      `${JSON.stringify(input)} should be stored as ${canonical}`,
    );
    // The canonical form is a fixed point: parsing it again gives itself.
    assert.equal(canonicalIpRange(canonical), canonical, `${canonical} is stable`);
  }
});

Deno.test('the parser refuses everything else (leading zeros, octal, hex, short forms, zone ids, bad prefixes)', () => {
  for (const [input, why] of INVALID) {
    assert.equal(parseIpRange(input), undefined, `${JSON.stringify(input)} should be refused (${why})`);
  }
});

Deno.test('an entry over 100 characters is refused without work', () => {
  assert.equal(parseIpRange(`${'1:'.repeat(60)}1`), undefined);
});

Deno.test('exact, wildcard and CIDR ranges match exactly the addresses they cover', () => {
  const cases: [string, string[], string[]][] = [
    ['10.1.2.3', ['10.1.2.3', '::ffff:10.1.2.3', '::FFFF:10.1.2.3'], ['10.1.2.4', '10.1.2.30', '::10.1.2.3']],
    ['192.168.*', ['192.168.0.1', '192.168.255.255'], ['192.169.0.1', '192.16.8.1']],
    ['192.168.1.*', ['192.168.1.0', '192.168.1.255'], ['192.168.2.1']],
    ['10.0.0.0/8', ['10.0.0.0', '10.255.255.255', '::ffff:10.9.9.9'], ['11.0.0.0', '9.255.255.255']],
    ['172.16.0.0/12', ['172.16.0.1', '172.31.255.254'], ['172.32.0.1', '172.15.255.255']],
    ['0.0.0.0/0', ['1.2.3.4', '255.255.255.255'], ['::1', '2001:db8::1']],
    ['2001:db8::1', ['2001:db8::1', '2001:DB8:0:0:0:0:0:1', '[2001:db8::1]'], ['2001:db8::2', '10.1.2.3']],
    ['2001:db8:abcd::/48', ['2001:db8:abcd::1', '2001:db8:abcd:ffff:ffff:ffff:ffff:ffff'], [
      '2001:db8:abce::1',
    ]],
    ['::/0', ['::1', 'fe80::1'], ['10.1.2.3', '::ffff:10.1.2.3']],
    ['::1', ['::1'], ['127.0.0.1', '::2']],
  ];
  for (const [entry, inside, outside] of cases) {
    const matches = rangeMatcher([entry]);
    for (const address of inside) assert.ok(matches(address), `${address} is in ${entry}`);
    for (const address of outside) assert.ok(!matches(address), `${address} is not in ${entry}`);
  }
});

Deno.test('client addresses are read as strictly as entries: junk and zone ids match nothing', () => {
  const matches = rangeMatcher(['0.0.0.0/0', '::/0']);
  for (const junk of ['unknown', '', '010.1.2.3', '10.1', 'fe80::1%eth0', '1.2.3.4:5678', 'evil, 10.1.2.3']) {
    assert.ok(!matches(junk), `${JSON.stringify(junk)} matches nothing`);
  }
});

Deno.test('a configured list with an invalid entry is refused as a whole', () => {
  assert.throws(
    () => rangeMatcher(['10.0.0.1', '10.1'], 'TRUSTED_PROXIES entry'),
    /TRUSTED_PROXIES entry: "10\.1"/,
  );
});

Deno.test('the whitelist rule: no entries admit everyone; otherwise only addresses inside one; a corrupt entry admits nobody', () => {
  assert.ok(whitelistAllows([], '203.0.113.9'));
  assert.ok(whitelistAllows([], 'unknown'));
  assert.ok(whitelistAllows(['203.0.113.0/24'], '203.0.113.9'));
  assert.ok(!whitelistAllows(['203.0.113.0/24'], '198.51.100.1'));
  assert.ok(!whitelistAllows(['203.0.113.0/24'], 'unknown'));
  assert.ok(!whitelistAllows(['not a range'], '203.0.113.9'));
});

Deno.test('the trusted-proxy matcher answers as the parser does, again and again and past the addresses it keeps', () => {
  const entries = ['10.9.0.0/16', '192.0.2.7', 'fd00::/8'];
  const parser = rangeMatcher(entries);
  const matcher = trustedProxyMatcher(entries);
  const addresses = [
    '192.0.2.7',
    '192.0.2.8',
    'fd00::1',
    'fe80::1',
    `${'1'.repeat(40)}.0.0.1`,
    ...Array.from({ length: 3000 }, (_, i) => `10.${8 + (i % 3)}.${Math.floor(i / 256) % 256}.${i % 256}`),
  ];
  for (let pass = 0; pass < 2; pass++) {
    for (const address of addresses) assert.equal(matcher(address), parser(address), address);
  }
});
