/**
 * The shipped systemd unit: `systemd-analyze verify` finds nothing to say, and `systemd-analyze security`
 * (offline: systemd is not PID 1 in CI's sandbox) rates its exposure, which is printed and held low.
 */
import assert from 'node:assert/strict';
import { have, must, ROOT, run } from './helpers.ts';

const UNIT = `${ROOT}deploy/legal-mail-portal.service`;
const INSTALL = '/opt/legal-mail-portal';
/** "OK" in systemd's scale is below 2; anything above 3 would mean a hardening line was lost. */
const MAX_EXPOSURE = 2.0;

/**
 * verify checks that ExecStart's binary exists, and the unit names the installed path. So the unit is
 * verified inside a throwaway root holding that path (a stand-in executable) and systemd's own units.
 */
async function verifyRoot(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: 'lmp-systemd-' });
  await Deno.mkdir(`${root}${INSTALL}/node_modules/deno`, { recursive: true });
  await Deno.writeTextFile(`${root}${INSTALL}/node_modules/deno/deno`, '#!/bin/sh\n', { mode: 0o755 });
  await Deno.mkdir(`${root}/etc/systemd/system`, { recursive: true });
  await Deno.copyFile(UNIT, `${root}/etc/systemd/system/legal-mail-portal.service`);
  await Deno.mkdir(`${root}/usr/lib/systemd`, { recursive: true });
  await must('cp', ['-r', '/lib/systemd/system', `${root}/usr/lib/systemd/system`]);
  return root;
}

Deno.test('systemd: the unit passes systemd-analyze verify without a single warning', async () => {
  assert.ok(await have('systemd-analyze'), 'systemd-analyze is missing: apt-get install systemd');
  const root = await verifyRoot();
  try {
    const { code, output } = await run('systemd-analyze', [
      'verify',
      '--man=no',
      `--root=${root}`,
      'legal-mail-portal.service',
    ]);
    assert.equal(code, 0, `systemd-analyze verify failed:\n${output}`);
    assert.equal(output.trim(), '', `systemd-analyze verify warned:\n${output}`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test('systemd: the unit builds nothing, writes only its state directory and runs only Deno', async () => {
  // The directives only: the comments may well mention npm.
  const unit = (await Deno.readTextFile(UNIT)).split('\n').filter((l) => !l.startsWith('#')).join('\n');
  assert.doesNotMatch(unit, /ExecStartPre=/, 'nothing may run before the API (the PWA is built at release)');
  assert.doesNotMatch(unit, /vite|npm /, 'the unit must not need Vite or npm at run time');
  assert.match(unit, /--allow-write=\/var\/lib\/legal-mail-portal\s/);
  assert.match(unit, /--allow-read=\/opt\/legal-mail-portal,\/var\/lib\/legal-mail-portal\s/);
  assert.match(unit, /--allow-run=\/opt\/legal-mail-portal\/node_modules\/deno\/deno\s/);
  assert.doesNotMatch(unit, /\s-A\s|--allow-all|--allow-run\s/, 'no blanket permission');
  assert.match(unit, /^Environment=DENO_DIR=\/var\/lib\/legal-mail-portal\//m);
  for (
    const line of [
      'ProtectHome=yes',
      'PrivateDevices=yes',
      'NoNewPrivileges=yes',
      'CapabilityBoundingSet=\n',
      'SystemCallFilter=@system-service',
      'ProtectSystem=strict',
      'MemoryMax=',
      'TimeoutStopSec=',
    ]
  ) {
    assert.ok(unit.includes(line), `the unit lacks ${line.trim()}`);
  }
});

Deno.test(`systemd: systemd-analyze security rates the unit's exposure at most ${MAX_EXPOSURE}`, async () => {
  assert.ok(await have('systemd-analyze'), 'systemd-analyze is missing: apt-get install systemd');
  const { output } = await run('systemd-analyze', ['security', '--offline=true', '--no-pager', UNIT]);
  const match = /Overall exposure level for legal-mail-portal\.service: ([\d.]+) (\w+)/.exec(output);
  assert.ok(match, `no exposure level in systemd-analyze security's answer:\n${output}`);
  console.log(`systemd-analyze security: exposure ${match[1]} ${match[2]} (0 is best, 10 worst)`);
  assert.ok(Number(match[1]) <= MAX_EXPOSURE, `exposure ${match[1]} is above ${MAX_EXPOSURE}:\n${output}`);
});
