import assert from 'node:assert/strict';
import { checkSettingValue, isHostName, isMailbox } from '../../contract/rules/settings.ts';

const num = (value: number, unit = 'attempts') => ({ type: 'number' as const, value, unit });
// The stored value no longer matters: type, unit and bounds come from the catalogue (contract/settings.ts).
const check = (key: any, _stored: any, input: any) => checkSettingValue(key, input);

Deno.test('a number setting takes whole numbers within its range and keeps its unit', () => {
  assert.deepEqual(check('failed_login_limit', num(5), { type: 'number', value: 2, unit: 'x' }), {
    ok: true,
    value: { type: 'number', value: 2, unit: 'attempts' },
  });
  for (const bad of [0, 6, 101, 2.5, NaN]) {
    const r = check('failed_login_limit', num(5), { type: 'number', value: bad });
    assert.deepEqual(r, {
      ok: false,
      message:
        'Failed login limit must be a whole number from 1 to 5 (CJIS Security Policy: at most 5 consecutive failed attempts).',
    });
  }
  assert.equal(check('session_idle_minutes', num(30), { type: 'number', value: 4 }).ok, false);
  assert.equal(check('session_idle_minutes', num(30), { type: 'number', value: 5 }).ok, true);
  assert.equal(check('smtp_port', num(25), { type: 'number', value: 65536 }).ok, false);
  assert.equal(check('document_retention_days', num(90), { type: 'number', value: 3650 }).ok, true);
  assert.equal(check('max_upload_mb', num(10), { type: 'number', value: '10' }).ok, false);
});

Deno.test("the type must be the setting's own", () => {
  assert.deepEqual(check('failed_login_limit', num(5), { type: 'text', value: '5' }), {
    ok: false,
    message: 'Failed login limit is a number setting.',
  });
  assert.equal(
    check('smtp_enabled', { type: 'boolean', value: false }, { type: 'boolean', value: 'true' }).ok,
    false,
  );
  assert.equal(
    check('smtp_enabled', { type: 'boolean', value: false }, { type: 'boolean', value: true }).ok,
    true,
  );
});

Deno.test('text settings follow their own rules and are trimmed', () => {
  const text = (value: string) => ({ type: 'text' as const, value });
  assert.deepEqual(check('department_abbreviation', text('DOC'), text(' MO DOC ')), {
    ok: true,
    value: text('MO DOC'),
  });
  assert.equal(check('department_abbreviation', text('DOC'), text('A&B-C.D')).ok, true);
  assert.equal(check('department_abbreviation', text('DOC'), text('')).ok, false);
  assert.equal(check('department_abbreviation', text('DOC'), text('ABCDEFGHIJKLM')).ok, false);
  assert.equal(check('department_abbreviation', text('DOC'), text('<b>')).ok, false);
  assert.equal(check('smtp_host', text(''), text('')).ok, true);
  assert.equal(check('smtp_host', text(''), text('mail.example.org')).ok, true);
  assert.equal(check('smtp_host', text(''), text('bad host')).ok, false);
  assert.equal(check('smtp_from', text(''), text('no-reply@localhost')).ok, true);
  assert.equal(check('smtp_from', text(''), text('a@b\r\nRCPT TO:<x@y>')).ok, false);
});

Deno.test('host names and mailboxes', () => {
  for (const h of ['localhost', '127.0.0.1', '::1', '[2001:db8::1]', 'smtp-1.mail.example.com']) {
    assert.ok(isHostName(h), h);
  }
  for (const h of ['-bad.com', 'a..b', '1.2.3.999', 'under_score.com', 'x'.repeat(64)]) {
    assert.ok(!isHostName(h), h);
  }
  for (const m of ['a@b.c', 'no-reply@localhost', "o'brien+tag@mail.example.org"]) assert.ok(isMailbox(m), m);
  for (const m of ['', '@x.org', 'a b@x.org', 'a@', '<a@x.org>', 'a@x y.org']) assert.ok(!isMailbox(m), m);
});
