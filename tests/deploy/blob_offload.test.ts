/**
 * BLOB_OFFLOAD=nginx behind Debian's nginx with the shipped deploy/nginx/ files (portal-proxy.conf and
 * portal-blobs.conf, its folder pointed at the test's DATA_DIR): the API authorizes and audits a reading, nginx
 * sends the bytes with the API's headers and handles Range; /_blobs/ answers nothing from outside; a request
 * without the right gets no bytes. Needs nginx and TEST_DATABASE_URL (the audit rows are read from the database).
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { have, ROOT } from './helpers.ts';
import { freePort, freshDatabase, type Instance, signInAt, startInstance } from '../support/instance.ts';
import { FsBlobStore } from '../../api/blobs/fs_store.ts';
import { makePdf, sha256Hex } from '../support/pdfs.ts';
import { startNginx } from '../support/nginx_front.ts';
import { rawRequest } from '../support/raw_http.ts';

const SERVER = Deno.env.get('TEST_DATABASE_URL');
const SHIPPED_FOLDER = '/var/lib/legal-mail-portal/blobs/';

/** Headers that belong to one hop or one answer's framing, not to what the API decided. */
const FRAMING = new Set([
  'content-length',
  'content-range',
  'accept-ranges',
  'date',
  'connection',
  'keep-alive',
  'server',
  'x-request-id',
]);

function decided(headers: Map<string, string>): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !FRAMING.has(name)).sort());
}

function holds(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * nginx in front as deploy/nginx ships it (minus TLS): a host-wide gzip as Debian's, the two includes, on `port`.
 * `folder`: where its /_blobs/ points (default the API's DATA_DIR/blobs/, as it must).
 */
async function startFront(
  dir: string,
  dataDir: string,
  apiPort: number,
  options: { port?: number; folder?: string } = {},
) {
  const port = options.port ?? freePort();
  const blobs = await Deno.readTextFile(`${ROOT}deploy/nginx/portal-blobs.conf`);
  assert.ok(
    blobs.includes(`alias ${SHIPPED_FOLDER};`),
    'the shipped folder is the systemd unit DATA_DIR/blobs',
  );
  await Deno.writeTextFile(
    `${dir}/portal-blobs.conf`,
    blobs.replace(SHIPPED_FOLDER, options.folder ?? `${dataDir}/blobs/`),
  );
  await Deno.copyFile(`${ROOT}deploy/nginx/portal-proxy.conf`, `${dir}/portal-proxy.conf`);
  return await startNginx(
    dir,
    port,
    `    access_log off;
    gzip on;
    gzip_types *;
    gzip_min_length 0;
    server {
        listen 127.0.0.1:${port};
        server_tokens off;
        include ${dir}/portal-blobs.conf;
        location / {
            include ${dir}/portal-proxy.conf;
            proxy_pass http://127.0.0.1:${apiPort};
        }
    }`,
  );
}

/** `npm run doctor` with the service's environment: what it printed. */
async function npmDoctor(env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command('npm', {
    args: ['run', '--silent', 'doctor'],
    cwd: ROOT,
    env: { NO_COLOR: '1', ...env },
    stdout: 'piped',
    stderr: 'piped',
  }).output();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

Deno.test({
  name:
    'BLOB_OFFLOAD=nginx: the API authorizes and audits, nginx sends the exact bytes with its headers and Range; /_blobs/ is closed from outside',
  ignore: !SERVER || !(await have('nginx')),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-offload-data-' });
    const dir = await Deno.makeTempDir({ prefix: 'lmp-offload-nginx-' });
    let api: Instance | undefined;
    let front: Awaited<ReturnType<typeof startFront>> | undefined;
    try {
      const frontPort = freePort();
      const env = {
        DATABASE_URL: db.url,
        SESSION_SECRET: 'offload-test-secret-0123456789abcdefghij',
        DATA_DIR: dataDir,
        BLOB_STORE: 'fs',
        BLOB_OFFLOAD: 'nginx',
        OFFLOAD_CHECK_URL: `http://127.0.0.1:${frontPort}`,
        TRUSTED_PROXIES: '127.0.0.1',
        PWA_DIST: `${dataDir}/no-pwa`,
      };
      api = await startInstance({ ...env, DEMO_SEED: '1' });
      front = await startFront(dir, dataDir, api.port, { port: frontPort });
      const base = front.url;
      // The offload canary went through this front: ready.
      const ready = await fetch(`${base}/api/health/ready`);
      assert.deepEqual([ready.status, await ready.json()], [200, { success: true, status: 'ready' }]);
      // npm run doctor (docs/operations.md) sends its own canary through the same front.
      const doctor = await npmDoctor(env);
      assert.ok(
        doctor.includes(`ok blob offload: the front at http://127.0.0.1:${frontPort} sent a canary blob\n`),
        doctor,
      );

      const pdf = await makePdf({ pages: 3, title: 'Offloaded', padTo: 1_500_000 });
      const attorney = await signInAt(base, 'attorney@demo.test', 'Demo-Attorney-2026!');
      const form = new FormData();
      form.set('file', new File([pdf as BlobPart], 'brief é.pdf', { type: 'application/pdf' }));
      form.set('recipient_doc_number', '100001');
      form.set('title', 'Offloaded letter');
      const up = await fetch(`${base}/api/documents/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}` },
        body: form,
      });
      const uploaded = await up.json();
      assert.equal(up.status, 201, JSON.stringify(uploaded));
      const id: string = uploaded.document.documentid;
      const sha = await sha256Hex(pdf);
      const inside = `${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;
      const offender = await signInAt(base, '100001', '246810');
      const auth = { Authorization: `Bearer ${offender}` };

      // Uploaded, it is sealed: nginx cannot send it, the API streams it itself through the front.
      const sealed = await rawRequest(base, 'GET', `/api/documents/view/${id}`, auth);
      assert.equal(sealed.status, 200);
      assert.equal(await sha256Hex(sealed.body), sha, 'the sealed letter, opened by the API');
      assert.equal(
        (await rawRequest(api.url, 'GET', `/api/documents/view/${id}`, auth)).headers.get('x-accel-redirect'),
        undefined,
      );
      // Stored as an installation from before sealing stored it (a plaintext blob under its SHA-256), the letter is
      // what the offload still sends.
      const fsStore = new FsBlobStore(`${dataDir}/blobs`);
      await fsStore.put(new Blob([pdf as BlobPart]).stream());
      for (
        const row of await sql<
          { name: string }[]
        >`delete from sealed_blobs where sha256 = ${sha} returning name`
      ) {
        await fsStore.delete(row.name);
      }

      // What the API itself answers (no nginx): the redirect, its headers, no body.
      const own = await rawRequest(api.url, 'GET', `/api/documents/view/${id}`, auth);
      assert.equal(own.status, 200);
      assert.equal(own.body.length, 0, 'the API sends no byte of the document itself');
      assert.equal(own.headers.get('x-accel-redirect'), `/_blobs/${inside}`);

      // Through nginx: the exact bytes, and every header the API decided, with the same values.
      const full = await rawRequest(base, 'GET', `/api/documents/view/${id}`, {
        ...auth,
        'Accept-Encoding': 'gzip',
      });
      assert.equal(full.status, 200);
      assert.equal(await sha256Hex(full.body), sha, 'the same bytes (SHA-256)');
      assert.equal(full.headers.get('content-length'), String(pdf.length));
      assert.equal(full.headers.get('content-encoding'), undefined, 'a document is never compressed');
      assert.equal(full.headers.get('x-accel-redirect'), undefined, 'the internal place is not shown');
      assert.equal(full.headers.get('last-modified'), undefined);
      const { 'x-accel-redirect': _place, ...apiDecided } = decided(own.headers);
      assert.deepEqual(decided(full.headers), apiDecided, "the API's headers, as it sent them");
      assert.equal(full.headers.get('etag'), `"${sha}"`);
      assert.equal(full.headers.get('cache-control'), 'private, no-store');
      assert.equal(full.headers.get('content-type'), 'application/pdf');
      assert.equal(full.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(full.headers.get('content-disposition'), "inline; filename*=UTF-8''brief%20%C3%A9.pdf");
      assert.equal(full.headers.get('accept-ranges'), 'bytes', 'one Accept-Ranges (nginx its own)');

      // Range is nginx's: the slice asked for, a suffix, and If-Range against the API's ETag.
      const part = await rawRequest(base, 'GET', `/api/documents/view/${id}`, {
        ...auth,
        Range: 'bytes=1000-1999',
      });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 1000-1999/${pdf.length}`);
      assert.deepEqual(part.body, pdf.slice(1000, 2000));
      assert.equal(part.headers.get('etag'), `"${sha}"`);
      const tail = await rawRequest(base, 'GET', `/api/documents/print/${id}`, {
        ...auth,
        Range: 'bytes=-500',
      });
      assert.equal(tail.status, 206);
      assert.deepEqual(tail.body, pdf.slice(pdf.length - 500));
      const stale = await rawRequest(base, 'GET', `/api/documents/view/${id}`, {
        ...auth,
        Range: 'bytes=0-9',
        'If-Range': '"not-this-version"',
      });
      assert.equal(stale.status, 200, 'If-Range that does not match: the whole document');
      assert.equal(stale.body.length, pdf.length);
      const beyond = await rawRequest(base, 'GET', `/api/documents/view/${id}`, {
        ...auth,
        Range: `bytes=${pdf.length}-`,
      });
      assert.equal(beyond.status, 416);
      assert.ok(!holds(beyond.body, pdf.slice(0, 64)));

      // The tablet's prefetch shares the path: offloaded too, with its own audit event.
      const pre = await rawRequest(base, 'GET', `/api/documents/prefetch/${id}`, auth);
      assert.equal(pre.status, 200);
      assert.equal(await sha256Hex(pre.body), sha);

      // The place itself, asked for from outside, in any spelling: 404 and none of the bytes.
      const head = pdf.slice(0, 64);
      for (
        const path of [
          `/_blobs/${inside}`,
          `/%5Fblobs/${inside}`,
          `//_blobs/${inside}`,
          `/api/../_blobs/${inside}`,
          `/_blobs/`,
        ]
      ) {
        const r = await rawRequest(base, 'GET', path, auth);
        assert.equal(r.status, 404, path);
        assert.ok(!holds(r.body, head), `${path}: no byte of the document`);
      }
      // A client's own X-Accel-Redirect is only a request header: nginx acts on the upstream's alone.
      const forged = await rawRequest(base, 'GET', '/api/health', {
        'X-Accel-Redirect': `/_blobs/${inside}`,
      });
      assert.ok(!holds(forged.body, head), 'a forged X-Accel-Redirect reaches nothing');

      // Without the right: no token (401), another offender (404 like any missing document), no bytes.
      const other = await signInAt(base, '100002', '135790');
      for (
        const [headers, status] of [
          [{}, 401],
          [{ Authorization: `Bearer ${other}` }, 404],
          [{ Authorization: 'Bearer not-a-token' }, 401],
        ] as const
      ) {
        for (const kind of ['view', 'print', 'prefetch']) {
          const r = await rawRequest(base, 'GET', `/api/documents/${kind}/${id}`, headers);
          assert.equal(r.status, status, `${kind} ${JSON.stringify(headers)}`);
          assert.equal(r.headers.get('x-accel-redirect'), undefined);
          assert.ok(!holds(r.body, head), `${kind}: no byte of the document`);
          assert.equal(r.headers.get('content-type'), 'application/json');
        }
      }

      // Audited as without offload: one reading for every view of this session within the window (the
      // API's own answer, the whole one, the ranges), one prefetch; nothing for the refused requests.
      const events = await sql<{ event_type: string; user: string; n: number }[]>`
        select a.event_type, coalesce(u.doc_number, u.email) as user, count(*)::int as n
        from audit_logs a join users u on u.id = a.user_id
        where a.resource_id::text = ${id} group by 1, 2 order by 1, 2`;
      const by = Object.fromEntries(events.map((e) => [`${e.event_type} ${e.user}`, e.n]));
      assert.equal(by['document_viewed 100001'], 1, JSON.stringify(by));
      assert.equal(by['document_printed 100001'], 1, JSON.stringify(by));
      assert.equal(by['document_prefetched 100001'], 1, JSON.stringify(by));
      assert.equal(by['document_viewed 100002'], undefined, JSON.stringify(by));
      assert.equal(by['document_not_found 100002'], 3, JSON.stringify(by));
      // The bytes sent are not a reading the sender sees: the reader's viewer reports that it showed them.
      const [{ early }] = await sql<{ early: boolean }[]>`
        select viewed_at is not null as early from documents where id::text = ${id}`;
      assert.equal(early, false, 'bytes sent by nginx are not yet "opened"');
      const shown = await fetch(`${base}/api/documents/shown/${id}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${offender}` },
      });
      assert.equal(shown.status, 200, await shown.text());
      const [{ viewed }] = await sql<{ viewed: boolean }[]>`
        select viewed_at is not null as viewed from documents where id::text = ${id}`;
      assert.ok(viewed, "the viewer's report sets the read time the sender sees");
    } finally {
      await front?.stop();
      await api?.stop();
      await sql.end();
      await db.drop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name:
    'BLOB_OFFLOAD=nginx with a front that cannot open the blobs: not ready, and a read is refused (503) before it is recorded',
  ignore: !SERVER || !(await have('nginx')),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await freshDatabase(SERVER!);
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-offload-data-' });
    const dir = await Deno.makeTempDir({ prefix: 'lmp-offload-nginx-' });
    let api: Instance | undefined;
    let front: Awaited<ReturnType<typeof startFront>> | undefined;
    try {
      const frontPort = freePort();
      const env = {
        DATABASE_URL: db.url,
        SESSION_SECRET: 'offload-test-secret-0123456789abcdefghij',
        DATA_DIR: dataDir,
        BLOB_STORE: 'fs',
        BLOB_OFFLOAD: 'nginx',
        OFFLOAD_CHECK_URL: `http://127.0.0.1:${frontPort}`,
        TRUSTED_PROXIES: '127.0.0.1',
        PWA_DIST: `${dataDir}/no-pwa`,
      };
      api = await startInstance({ ...env, DEMO_SEED: '1' });
      // nginx's /_blobs/ points at a folder that is not the API's: it cannot open any blob.
      await Deno.mkdir(`${dataDir}/elsewhere`);
      front = await startFront(dir, dataDir, api.port, { port: frontPort, folder: `${dataDir}/elsewhere/` });
      const base = front.url;

      const ready = await fetch(`${base}/api/health/ready`);
      assert.deepEqual([ready.status, await ready.json()], [503, { success: false, message: 'Not ready.' }]);
      const doctor = await npmDoctor(env);
      assert.match(
        doctor,
        /^FAIL blob offload: the offload canary: .*answered 404: nginx cannot open the blobs/m,
      );

      const pdf = await makePdf({ pages: 1, title: 'Never read', padTo: 20_000 });
      const attorney = await signInAt(base, 'attorney@demo.test', 'Demo-Attorney-2026!');
      const form = new FormData();
      form.set('file', new File([pdf as BlobPart], 'letter.pdf', { type: 'application/pdf' }));
      form.set('recipient_doc_number', '100001');
      form.set('title', 'Never read');
      const up = await fetch(`${base}/api/documents/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}` },
        body: form,
      });
      const uploaded = await up.json();
      assert.equal(up.status, 201, JSON.stringify(uploaded));
      const id: string = uploaded.document.documentid;
      // A plaintext blob from before sealing, the one kind nginx would send (a sealed one goes through the API).
      const fsStore = new FsBlobStore(`${dataDir}/blobs`);
      const sha = (await fsStore.put(new Blob([pdf as BlobPart]).stream())).sha256;
      for (
        const row of await sql<
          { name: string }[]
        >`delete from sealed_blobs where sha256 = ${sha} returning name`
      ) {
        await fsStore.delete(row.name);
      }
      const offender = await signInAt(base, '100001', '246810');
      for (const kind of ['view', 'print', 'prefetch']) {
        const r = await rawRequest(base, 'GET', `/api/documents/${kind}/${id}`, {
          Authorization: `Bearer ${offender}`,
        });
        assert.equal(r.status, 503, kind);
        assert.equal(r.headers.get('retry-after'), '30', kind);
        assert.ok(!holds(r.body, pdf.slice(0, 64)), kind);
      }
      const [{ n }] = await sql<{ n: number }[]>`
        select count(*)::int as n from audit_logs
        where resource_id::text = ${id}
          and event_type in ('document_viewed', 'document_printed', 'document_prefetched')`;
      assert.equal(n, 0, 'no reading, print or prefetch recorded');
      const [{ viewed }] = await sql<{ viewed: boolean }[]>`
        select viewed_at is not null as viewed from documents where id::text = ${id}`;
      assert.equal(viewed, false, 'the sender does not see "opened"');

      const admin = await signInAt(base, 'admin@demo.test', 'Demo-Admin-2026!');
      const view = await fetch(`${base}/api/admin/health`, { headers: { authorization: `Bearer ${admin}` } });
      const health = await view.json();
      assert.equal(view.status, 200, JSON.stringify(health));
      assert.match(health.data.checks.offload, /answered 404: nginx cannot open the blobs/);
    } finally {
      await front?.stop();
      await api?.stop();
      await sql.end();
      await db.drop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test('BLOB_OFFLOAD=nginx is refused at start with any blob store but fs', async () => {
  const { loadConfig } = await import('../../api/config.ts');
  assert.throws(
    () => loadConfig({ BLOB_STORE: 'postgres', BLOB_OFFLOAD: 'nginx' }),
    /BLOB_OFFLOAD=nginx needs BLOB_STORE=fs/,
  );
  assert.throws(() => loadConfig({ BLOB_OFFLOAD: 'apache' }), /BLOB_OFFLOAD must be 'off' or 'nginx'/);
  assert.equal(loadConfig({ BLOB_OFFLOAD: 'nginx' }).blobOffload, 'nginx');
  assert.equal(loadConfig({}).blobOffload, 'off');
  assert.equal(loadConfig({ BLOB_OFFLOAD: '' }).blobOffload, 'off');
});
