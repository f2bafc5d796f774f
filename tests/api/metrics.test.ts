/**
 * GET /metrics: the Prometheus text format for the operator's scraper with METRICS_TOKEN, a 401 without it or
 * with another, no route at all (and never the web app's page) when the variable is unset, and no DOC number,
 * e-mail address or id in any label.
 */
import assert from 'node:assert/strict';
import { createBlobStore } from '../../api/blobs/store.ts';
import { createMetrics } from '../../api/http/metrics.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { makeFakeDist } from '../support/pwa_dist.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789abcdef';

let t: TestApp;
let unset: TestApp;
let dist: string;

Deno.test({
  name: 'setup: one app with METRICS_TOKEN, one without, both serving a PWA build',
  ...DB_TEST,
  fn: async () => {
    dist = await makeFakeDist();
    t = await createTestApp({ METRICS_TOKEN: TOKEN, PWA_DIST: dist });
    unset = await createTestApp({ PWA_DIST: dist });
  },
});

const scrape = (app: TestApp, authorization?: string) =>
  call(app, 'GET', '/metrics', { headers: authorization ? { authorization } : {} });

Deno.test({
  name: "without METRICS_TOKEN /metrics does not exist: 404 JSON, not the web app's page",
  ...DB_TEST,
  fn: async () => {
    // The PWA's fallback answers an unknown path with its page, so the build is there to answer.
    assert.match((await call(unset, 'GET', '/some/client/route')).body, /Secure Mail/);
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const r = await scrape(unset, authorization);
      assert.equal(r.status, 404);
      assert.equal(r.body.success, false);
      assert.equal(r.body.code, 'not_found');
    }
  },
});

Deno.test({
  name: 'with METRICS_TOKEN, /metrics without the token or with another answers 401 JSON',
  ...DB_TEST,
  fn: async () => {
    for (
      const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${btoa(`x:${TOKEN}`)}`]
    ) {
      const r = await scrape(t, authorization);
      assert.equal(r.status, 401, String(authorization));
      assert.equal(r.body.code, 'metrics_token_required');
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="metrics"');
      assert.doesNotMatch(JSON.stringify(r.body), /legal_mail_/);
    }
  },
});

Deno.test({
  name:
    'the metrics after some requests: the text format with every metric, labelled by route pattern, no DOC number, e-mail or id',
  ...DB_TEST,
  fn: async () => {
    const attorney = await signIn(t, ...DEMO.attorney);
    const offender = await signIn(t, ...DEMO.offender);
    // A wrong password, a refused lookup of a DOC number, an unknown document id and the offender's own list.
    await call(t, 'POST', '/api/auth/login', {
      body: { username: DEMO.admin[0], password: 'not-the-password', entity: 'default' },
      ip: '10.93.0.1',
    });
    await call(t, 'GET', '/api/recipients/100002', { token: attorney });
    await call(t, 'GET', `/api/documents/${crypto.randomUUID()}/info`, { token: attorney });
    await call(t, 'GET', `/api/documents/offender/${DEMO.offender[0]}`, { token: offender });
    for (let i = 0; i < 25; i++) {
      await call(t, 'POST', '/api/auth/reset-password', {
        body: { token: `guess-${i}`, newPassword: 'Copper-Meadow-Violin-41' },
        ip: '10.93.0.2',
      });
    }

    const r = await scrape(t, `Bearer ${TOKEN}`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text: string = r.body;
    for (
      const name of [
        'legal_mail_http_request_duration_seconds_bucket',
        'legal_mail_http_request_duration_seconds_count',
        'legal_mail_http_requests_in_flight',
        'legal_mail_sign_in_failures_total',
        'legal_mail_throttled_total',
        'legal_mail_blob_store_errors_total',
        'legal_mail_email_outbox_messages',
        'legal_mail_email_outbox_oldest_pending_seconds',
        'legal_mail_db_up',
        'legal_mail_db_ping_seconds',
        'legal_mail_db_pool_max_connections',
        'legal_mail_db_connections',
        'legal_mail_password_hashing_running',
        'legal_mail_password_hashing_queued',
        'legal_mail_password_hashing_reserved',
        'legal_mail_password_hashing_limit',
        'legal_mail_password_hashing_total',
        'legal_mail_password_hashing_refused_total',
        'legal_mail_process_resident_memory_bytes',
      ]
    ) assert.match(text, new RegExp(`^# TYPE ${name.replace(/_(bucket|count)$/, '')} `, 'm'), name);

    // Route patterns, not paths: the DOC number and the id stay out.
    assert.match(text, /route="\/api\/documents\/offender\/:docNumber"/);
    assert.match(text, /route="\/api\/recipients\/:docNumber"/);
    assert.match(
      text,
      /legal_mail_sign_in_failures_total\{route="\/api\/auth\/login",code="bad_credentials"\} 1/,
    );
    assert.match(text, /legal_mail_throttled_total\{code="reset_code_throttled"\} 5/);
    assert.match(text, /legal_mail_db_up 1/);
    // The hashing gate's two lines, each with its own count and length.
    for (const line of ['ordinary', 'priority']) {
      assert.match(text, new RegExp(`^legal_mail_password_hashing_queued\\{line="${line}"\\} 0$`, 'm'));
      assert.match(text, new RegExp(`^legal_mail_password_hashing_reserved\\{line="${line}"\\} 0$`, 'm'));
    }
    assert.match(text, /^legal_mail_password_hashing_limit\{kind="priority_queue"\} [1-9]\d*$/m);
    assert.doesNotMatch(text, /10000[12]|@|[0-9a-f]{8}-[0-9a-f]{4}-|10\.93\./);
  },
});

Deno.test({
  name: 'a failed blob store call is counted by its operation',
  ...DB_TEST,
  fn: async () => {
    const metrics = createMetrics(t.deps);
    // A real fs store whose folder cannot be made: its writability probe fails as a full or read-only disk does.
    const broken = metrics.countBlobErrors(
      createBlobStore({ blobStore: 'fs', dataDir: '/proc/no-such-folder' }, t.db),
    );
    await assert.rejects(broken.checkWritable());
    assert.match(
      await metrics.registry.metrics(),
      /legal_mail_blob_store_errors_total\{operation="checkWritable"\} 1/,
    );
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
    await unset.close();
    await Deno.remove(dist, { recursive: true });
  },
});
