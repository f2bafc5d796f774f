/**
 * Readiness as anyone may call it: ready or not, nothing more, and the blob store's write probe at most once a
 * minute whatever the traffic (counted at the store, on a clock the test moves); what failed goes to the log and to
 * the department administrator's GET /api/admin/health.
 */
import assert from 'node:assert/strict';
import { createApp } from '../../api/app.ts';
import { FsBlobStore } from '../../api/blobs/fs_store.ts';
import type { AppDeps } from '../../api/deps.ts';
import { NOT_READY_LOG_INTERVAL_MS, PROBE_INTERVAL_MS } from '../../api/http/readiness.ts';
import type { Logger } from '../../api/log.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';

let t: TestApp;

/** The real fs store, counting its write probes; `failure`, while set, is the probe's error. */
class CountingStore extends FsBlobStore {
  probes = 0;
  failure: string | null = null;
  override checkWritable(): Promise<void> {
    this.probes++;
    if (this.failure) return Promise.reject(new Error(this.failure));
    return super.checkWritable();
  }
}

/** The test app with `store`, a clock the test moves, and its log lines kept; `probeEveryCall`: no probe cache. */
function appWith(store: FsBlobStore, options: { probeEveryCall?: boolean } = {}) {
  const clock = { now: 1_000_000 };
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const log: Logger = { info: keep('info'), warn: keep('warn'), error: keep('error') };
  const config = options.probeEveryCall ? { ...t.deps.config, readyProbeIntervalMs: 0 } : t.deps.config;
  const deps: AppDeps = { ...t.deps, config, blobs: store, log, clock: () => clock.now };
  const app: TestApp = { ...t, deps, app: createApp(deps) };
  return { app, clock, lines };
}

Deno.test({
  name: 'readiness: setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
  },
});

Deno.test({
  name: 'readiness: 50 anonymous calls make at most one write probe; the next comes a minute later',
  ...DB_TEST,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-ready-' });
    try {
      const store = new CountingStore(dir);
      const { app, clock } = appWith(store);
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => call(app, 'GET', '/api/health/ready')),
      );
      for (let i = 0; i < 25; i++) answers.push(await call(app, 'GET', '/api/health/ready'));
      assert.ok(answers.every((r) => r.status === 200), JSON.stringify(answers.map((r) => r.status)));
      assert.equal(store.probes, 1, 'one write probe for 50 calls');
      assert.deepEqual(answers[0].body, { success: true, status: 'ready' }, 'ready, and nothing more');
      clock.now += PROBE_INTERVAL_MS - 1;
      await call(app, 'GET', '/api/health/ready');
      assert.equal(store.probes, 1, 'still within the minute');
      clock.now += 1;
      await call(app, 'GET', '/api/health/ready');
      assert.equal(store.probes, 2, 'a minute on: probed again');
      for await (const entry of Deno.readDir(`${dir}/tmp`)) assert.fail(`probe left ${entry.name}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "readiness: a failing store's details (its folder) are not in the anonymous answer; the log and the department admin's view have them",
  ...DB_TEST,
  fn: async () => {
    const store = new CountingStore('/proc/lmp-secret-folder/blobs');
    const { app, lines } = appWith(store);
    const r = await call(app, 'GET', '/api/health/ready');
    assert.equal(r.status, 503);
    assert.doesNotMatch(JSON.stringify(r.body), /lmp-secret-folder|proc|blobStore/);
    assert.deepEqual(r.body, { success: false, message: 'Not ready.' });
    assert.ok(lines.some((l) => /^warn not ready .*lmp-secret-folder/.test(l)), lines.join('\n'));

    assert.equal((await call(app, 'GET', '/api/admin/health')).status, 401, 'anonymous');
    const attorney = await signIn(app, ...DEMO.attorney);
    assert.equal((await call(app, 'GET', '/api/admin/health', { token: attorney })).status, 403);
    const admin = await signIn(app, ...DEMO.admin);
    const view = await call(app, 'GET', '/api/admin/health', { token: admin });
    assert.equal(view.status, 200, JSON.stringify(view.body));
    assert.equal(view.body.data.ready, false);
    assert.equal(view.body.data.checks.database, 'ok');
    assert.equal(view.body.data.checks.migrations, 'ok');
    assert.match(view.body.data.checks.blobStore, /lmp-secret-folder/);
    assert.ok(!Number.isNaN(Date.parse(view.body.data.probedAt.blobStore)));
    assert.equal(store.probes, 1, "the operator's view shares the cached probe");
  },
});

Deno.test({
  name:
    'readiness: a monitor polling while not ready logs the cause once a minute, and at once when the cause changes',
  ...DB_TEST,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-ready-' });
    try {
      const store = new CountingStore(dir);
      // The store probed on every call, so a new cause shows within the minute.
      const { app, clock, lines } = appWith(store, { probeEveryCall: true });
      const warnings = () => lines.filter((l) => l.startsWith('warn not ready'));
      const poll = async (times: number) => {
        for (let i = 0; i < times; i++) {
          assert.equal((await call(app, 'GET', '/api/health/ready')).status, store.failure ? 503 : 200);
          clock.now += 1000;
        }
      };
      store.failure = 'disk full at /srv/blobs';
      await poll(30);
      assert.equal(warnings().length, 1, lines.join('\n'));
      assert.match(warnings()[0], /disk full/);
      clock.now += NOT_READY_LOG_INTERVAL_MS - 30_000;
      await poll(1);
      assert.equal(warnings().length, 2, 'the same cause a minute on: logged again');
      assert.match(warnings()[1], /"not_logged_since_last":29/);
      await poll(5);
      assert.equal(warnings().length, 2);
      store.failure = 'permission denied at /srv/blobs';
      await poll(5);
      assert.equal(warnings().length, 3, 'a new cause is logged at once');
      assert.match(warnings()[2], /permission denied/);
      store.failure = null;
      await poll(5);
      assert.deepEqual(lines.filter((l) => l.startsWith('info ready again')).length, 1, lines.join('\n'));
      store.failure = 'permission denied at /srv/blobs';
      await poll(1);
      assert.equal(warnings().length, 4, 'not ready again after being ready: logged at once');
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({ name: 'readiness: teardown', ...DB_TEST, fn: () => t.close() });
