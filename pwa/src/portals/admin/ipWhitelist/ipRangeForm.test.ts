import { inLanguage } from '../../../i18n/testing.ts';
import assert from 'node:assert/strict';
import type { IpRangeEntry } from './ipWhitelistApi.ts';
import { formValuesOf, ipRangePayload, ipRangeProblem, policyLine, toggleAction } from './ipRangeForm.ts';

const entry = (overrides: Partial<IpRangeEntry> = {}): IpRangeEntry => ({
  id: 'a1',
  ipRange: '10.0.0.0/8',
  description: null,
  isActive: false,
  createdAt: '2026-11-22T10:00:00Z',
  ...overrides,
});

Deno.test('a blank range is required, a malformed one is an invalid format, the supported forms pass', () => {
  for (const blank of ['', '   ', undefined]) {
    assert.equal(ipRangeProblem(blank), 'IP range is required');
  }
  for (const bad of ['10.1', '010.0.0.1', '1::2::3', '10.0.0.0/33', 'fe80::1%eth0', '192.*.1.*']) {
    assert.equal(ipRangeProblem(bad), 'Invalid IP range format', bad);
  }
  for (const good of ['10.1.2.3', ' 2001:db8::1 ', '192.168.*', '10.0.0.0/8', '2001:db8::/32']) {
    assert.equal(ipRangeProblem(good), null, good);
  }
});

Deno.test('an add sends the trimmed range and description; an edit also keeps the current isActive', () => {
  assert.deepEqual(ipRangePayload({ ipRange: ' 10.1.2.3 ', description: ' Unit A ' }, null), {
    ipRange: '10.1.2.3',
    description: 'Unit A',
  });
  assert.deepEqual(ipRangePayload({ ipRange: '10.1.2.0/24', description: '' }, entry({ isActive: false })), {
    ipRange: '10.1.2.0/24',
    description: '',
    isActive: false,
  });
});

Deno.test('the form starts from the row; the toggle offers the opposite state with its message', () => {
  assert.deepEqual(formValuesOf(entry({ description: null })), { ipRange: '10.0.0.0/8', description: '' });
  assert.deepEqual(toggleAction(entry({ isActive: true })), {
    label: 'Deactivate',
    isActive: false,
    done: 'IP range deactivated',
  });
  assert.deepEqual(toggleAction(entry({ isActive: false })), {
    label: 'Activate',
    isActive: true,
    done: 'IP range activated',
  });
});

Deno.test('the empty-list policy in words: closed and allowed-when-configured are warnings', () => {
  assert.deepEqual(policyLine({ configured: true, whenEmpty: 'deny', effect: 'ranges' }), {
    text: 'Offenders of this entity are admitted only from the active ranges below.',
    warning: false,
  });
  const closed = policyLine({ configured: true, whenEmpty: 'deny', effect: 'closed' });
  assert.ok(closed.warning);
  assert.ok(
    closed.text.startsWith('No active range: offenders of this entity are refused from every address.'),
  );
  const allowed = policyLine({ configured: true, whenEmpty: 'allow', effect: 'open' });
  assert.ok(allowed.warning);
  assert.match(allowed.text, /admitted from every address .*'allow'/);
  const fresh = policyLine({ configured: false, whenEmpty: 'deny', effect: 'open' });
  assert.equal(fresh.warning, false);
  assert.match(fresh.text, /No range has been configured yet/);
});

Deno.test('the sentences and the toggle are in the language shown', async () => {
  await inLanguage('es', () => {
    assert.equal(ipRangeProblem(''), 'Escriba un rango de IP');
    assert.equal(toggleAction(entry({ isActive: true })).label, 'Desactivar');
    assert.match(
      policyLine({ configured: true, whenEmpty: 'deny', effect: 'closed' }).text,
      /^No hay ningún rango/,
    );
  });
});
