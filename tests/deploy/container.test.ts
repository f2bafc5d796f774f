/**
 * deploy/container/compose.yaml run for real with podman-compose: PostgreSQL, two API replicas and nginx.
 * Through nginx (HTTPS with the self-signed certificate it made on first start): sign in, upload a PDF,
 * then read it back from each replica directly, so whichever took the upload, the other serves the same
 * bytes. The audit log must record the real client's address, not nginx's nor a forged X-Forwarded-For.
 * Everything is torn down at the end: containers, volumes, network. Images are kept for the next run.
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { docCommands } from '../support/doc_commands.ts';
import { makePdf } from '../support/pdfs.ts';
import { have, must, ROOT, run, waitFor } from './helpers.ts';
import { buildImage, ensureBaseImage, podman, PODMAN_ENV, podmanWorks } from './podman.ts';

const PROJECT = 'lmp-ci';
const NETWORK = 'legal-mail-portal-net';
const COMPOSE = `${ROOT}deploy/container/compose.yaml`;
const ci = ['true', '1'].includes(Deno.env.get('CI') ?? '');
const available = (await have('podman')) && (await have('podman-compose')) && (await podmanWorks());
if (!available) {
  console.log(
    `container test: ${
      ci ? 'podman is missing (CI requires it)' : 'skipped, podman or podman-compose is missing'
    }`,
  );
}

/** The host's own non-loopback address: published ports reached through it keep the client's address. */
async function hostAddress(): Promise<string> {
  const route = await must('ip', ['-4', 'route', 'get', '1.1.1.1']);
  const match = / src (\S+)/.exec(route);
  assert.ok(match, `no source address in: ${route}`);
  return match[1];
}

function compose(args: string[], env: Record<string, string>): Promise<string> {
  return must('podman-compose', ['-p', PROJECT, '-f', COMPOSE, ...args], { env: { ...PODMAN_ENV, ...env } });
}

async function containerOf(service: string): Promise<string> {
  const name = (await podman([
    'ps',
    '--filter',
    `label=io.podman.compose.project=${PROJECT}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
    '--format',
    '{{.Names}}',
  ])).trim();
  assert.ok(name, `no running container for ${service}`);
  return name;
}

/** Removes everything of the project; also the leftovers of an earlier run that died. */
async function tearDown(env: Record<string, string>): Promise<void> {
  await run('podman-compose', ['-p', PROJECT, '-f', COMPOSE, 'down', '-v', '-t', '10'], {
    env: { ...PODMAN_ENV, ...env },
  });
  const label = `label=io.podman.compose.project=${PROJECT}`;
  const left = (await run('podman', ['ps', '-aq', '--filter', label], { env: PODMAN_ENV })).output.split(
    /\s+/,
  ).filter(Boolean);
  if (left.length) await run('podman', ['rm', '-f', ...left], { env: PODMAN_ENV });
  const volumes = (await run('podman', ['volume', 'ls', '-q', '--filter', label], { env: PODMAN_ENV })).output
    .split(/\s+/)
    .filter(Boolean);
  if (volumes.length) await run('podman', ['volume', 'rm', '-f', ...volumes], { env: PODMAN_ENV });
  await run('podman', ['network', 'rm', '-f', NETWORK], { env: PODMAN_ENV });
}

/**
 * What the network and the database looked like when the test failed: each container's restarts, each
 * replica's fresh lookup of and connection to db:5432 (as postgres.js makes them), and the database's sessions.
 */
async function diagnose(): Promise<string> {
  const probe = `import dns from 'node:dns/promises'; import net from 'node:net';
    const t0 = performance.now(); let out = '';
    try { out += 'lookup db ' + JSON.stringify(await dns.lookup('db', { all: true })); }
    catch (e) { out += 'lookup db failed ' + e.code; }
    out += ' in ' + (performance.now() - t0).toFixed(0) + ' ms';
    const t1 = performance.now();
    out += await new Promise((done) => { const s = net.connect(5432, 'db');
      const t = setTimeout(() => { s.destroy(); done(', connect: no answer in 10 s'); }, 10000);
      s.on('connect', () => { clearTimeout(t); s.destroy(); done(', connect in ' + (performance.now() - t1).toFixed(0) + ' ms'); });
      s.on('error', (e) => { clearTimeout(t); done(', connect failed ' + e.code); }); });
    console.log(out);`;
  const lines: string[] = [];
  for (const service of ['db', 'api1', 'api2', 'proxy']) {
    const name = await containerOf(service).catch(() => '');
    if (!name) {
      lines.push(`${service}: not running`);
      continue;
    }
    const state = await run('podman', [
      'inspect',
      '--format',
      '{{.RestartCount}} restarts, started {{.State.StartedAt}}, {{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
      name,
    ], { env: PODMAN_ENV });
    lines.push(`${service}: ${state.output.trim()}`);
    if (service.startsWith('api')) {
      const probed = await run('podman', ['exec', name, 'deno', 'eval', probe], { env: PODMAN_ENV });
      lines.push(`  ${probed.output.trim()}`);
    }
  }
  const db = await containerOf('db').catch(() => '');
  if (db) {
    const sessions = await run('podman', [
      'exec',
      db,
      'psql',
      '-d',
      'portal',
      '-Atc',
      `select pid, client_addr, backend_start, state, wait_event_type, wait_event from pg_stat_activity
       where backend_type = 'client backend' order by backend_start`,
    ], { env: PODMAN_ENV });
    lines.push(`database sessions:\n${sessions.output.trim()}`);
  }
  return lines.join('\n');
}

Deno.test({
  name:
    'container: compose with two replicas behind nginx signs in, uploads through one and reads through the other',
  ignore: !available && !ci,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assert.ok(
      available,
      'podman, runc and podman-compose are required under CI (apt-get install podman runc podman-compose)',
    );
    const started = Date.now();
    const host = await hostAddress();
    const [httpPort, httpsPort] = [
      18000 + Math.floor(Math.random() * 900),
      19000 + Math.floor(Math.random() * 900),
    ];
    const env = {
      POSTGRES_PASSWORD: crypto.randomUUID(),
      POSTGRES_API_PASSWORD: crypto.randomUUID(),
      SESSION_SECRET: crypto.randomUUID() + crypto.randomUUID(),
      PIN_PEPPER: crypto.randomUUID() + crypto.randomUUID(),
      MFA_SECRET_KEY: crypto.randomUUID() + crypto.randomUUID(),
      BLOB_KEY: crypto.randomUUID() + crypto.randomUUID(),
      AUDIT_SIGNING_KEY: Array.from(
        crypto.getRandomValues(new Uint8Array(32)),
        (b) => b.toString(16).padStart(2, '0'),
      )
        .join(''),
      SMTP_USER: '',
      SMTP_PASSWORD: '',
      SMTP_TLS: '',
      DEMO_SEED: '1',
      HTTP_PUBLISH: String(httpPort),
      HTTPS_PUBLISH: String(httpsPort),
    };
    const work = await Deno.makeTempDir({ prefix: 'lmp-container-' });
    await tearDown(env);
    try {
      await ensureBaseImage();
      for (const image of ['db', 'api', 'proxy'] as const) await buildImage(image);
      const built = Date.now();
      // podman-compose 1.0 ignores the compose file's ipam block: make the network as the file describes it.
      await podman(['network', 'create', '--subnet', '172.30.47.0/24', NETWORK]);
      await compose(['up', '-d'], env);

      const proxy = await containerOf('proxy');
      await waitFor(
        'nginx to make its certificate',
        async () =>
          (await run('podman', ['exec', proxy, 'test', '-s', '/etc/portal-tls/fullchain.pem'], {
            env: PODMAN_ENV,
          })).code === 0,
        60_000,
      );
      await Deno.writeTextFile(
        `${work}/ca.pem`,
        await podman(['exec', proxy, 'cat', '/etc/portal-tls/fullchain.pem']),
      );

      /** curl through nginx, the certificate checked against the one nginx generated (CN localhost). */
      const curl = async (path: string, args: string[] = []) => {
        const out = await must('curl', [
          '-sS',
          '--cacert',
          `${work}/ca.pem`,
          '--resolve',
          `localhost:${httpsPort}:${host}`,
          '-D',
          `${work}/headers`,
          '-w',
          '\n%{http_code} %{http_version}',
          ...args,
          `https://localhost:${httpsPort}${path}`,
        ]);
        const lines = out.split('\n');
        const [status, version] = lines.pop()!.split(' ');
        return {
          status: Number(status),
          version,
          body: lines.join('\n'),
          headers: await Deno.readTextFile(`${work}/headers`),
        };
      };
      const json = (body: unknown, token?: string) => [
        '-H',
        'Content-Type: application/json',
        ...(token ? ['-H', `Authorization: Bearer ${token}`] : []),
        '--data-binary',
        JSON.stringify(body),
      ];
      const signIn = async (username: string, password: string, extra: string[] = []) => {
        const answer = await curl('/api/auth/login', [...json({ username, password }), ...extra]);
        assert.equal(answer.status, 200, `${username} could not sign in through nginx: ${answer.body}`);
        return JSON.parse(answer.body).token as string;
      };

      await waitFor('both replicas ready behind nginx', async () => {
        for (const api of ['api1', 'api2']) {
          const container = await containerOf(api);
          const health = await run('podman', ['healthcheck', 'run', container], { env: PODMAN_ENV });
          if (health.code !== 0) return false;
          // Debian's aardvark-dns (1.4, with podman 4.3) tears its listeners down and up again whenever a container
          // joins the network, and name lookups there can then go unanswered for tens of seconds
          // (containers/aardvark-dns#389, fixed in 1.11): a replica whose pool opens a connection in that window
          // waits out postgres.js's 30 s connect timeout on "db". Ready means the name answers again too.
          const lookup = await run('podman', ['exec', container, 'timeout', '2', 'getent', 'hosts', 'db'], {
            env: PODMAN_ENV,
          });
          if (lookup.code !== 0) return false;
        }
        return (await curl('/api/health')).status === 200;
      }, 180_000);
      const ready = Date.now();

      // Plain HTTP only redirects; HTTPS speaks HTTP/2 and carries the API's own security headers, once each.
      const redirect = await must('curl', [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{redirect_url}',
        `http://${host}:${httpPort}/login`,
      ]);
      assert.match(redirect, /^301 https:\/\//, `port 80 answered ${redirect}`);
      const login = await curl('/login');
      assert.equal(login.status, 200);
      assert.equal(login.version, '2', 'nginx should negotiate HTTP/2');
      assert.match(login.body, /<script type="module"/);
      assert.match(login.headers, /content-security-policy: [^\n]*script-src 'self'/i);
      assert.equal(
        login.headers.match(/strict-transport-security:/gi)?.length,
        1,
        `HSTS not exactly once:\n${login.headers}`,
      );

      // The client's address as the API sees it: the real one, not nginx's, not what the client claims.
      const admin = await signIn('admin@demo.test', 'Demo-Admin-2026!', ['-H', 'X-Forwarded-For: 6.6.6.6']);
      const logs = JSON.parse(
        (await curl('/api/admin/audit-logs?limit=20', ['-H', `Authorization: Bearer ${admin}`])).body,
      );
      const signInEvent = logs.data.logs.find((l: { event_type: string }) => /login/i.test(l.event_type));
      assert.ok(signInEvent, `no sign-in in the audit log: ${JSON.stringify(logs.data.logs.slice(0, 3))}`);
      assert.equal(
        signInEvent.ip_address,
        host,
        `the audit log recorded ${signInEvent.ip_address}, the client was ${host}`,
      );

      // Upload through nginx, then read back from each replica's own port: both serve the same bytes.
      const pdf = await makePdf({ pages: 2, title: 'Container test' });
      await Deno.writeFile(`${work}/letter.pdf`, pdf);
      const attorney = await signIn('attorney@demo.test', 'Demo-Attorney-2026!');
      const upload = await curl('/api/documents/upload', [
        '-H',
        `Authorization: Bearer ${attorney}`,
        '-F',
        'recipient_doc_number=100001',
        '-F',
        'title=Container test',
        '-F',
        `file=@${work}/letter.pdf;type=application/pdf`,
      ]);
      assert.equal(upload.status, 201, `upload through nginx: ${upload.body}`);
      const id = JSON.parse(upload.body).document?.id ?? JSON.parse(upload.body).document?.documentid;
      const offender = await signIn('100001', '246810');
      const expected = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', pdf as BufferSource)))
        .map((b) => b.toString(16).padStart(2, '0')).join('');
      // The letter is sealed at rest: each replica opens it with the shared BLOB_KEY and sends the bytes itself
      // (compose's BLOB_OFFLOAD=nginx hands nginx only plaintext blobs stored before sealing), whichever replica
      // took the upload.
      for (const api of ['api1', 'api2']) {
        const read =
          `const r = await fetch('http://127.0.0.1:5000/api/documents/view/${id}', { headers: { Authorization: 'Bearer ${offender}' } });
          console.log(r.status, r.headers.get('x-accel-redirect'), (await r.arrayBuffer()).byteLength);`;
        const answer = (await podman(['exec', await containerOf(api), 'deno', 'eval', read])).trim();
        assert.equal(answer, `200 null ${pdf.length}`, `${api} did not send the sealed letter itself`);
      }
      // /_blobs/ (nginx's internal location for offloaded files) is closed from outside, whatever the path.
      const inside = `/_blobs/${expected.slice(0, 2)}/${expected.slice(2, 4)}/${expected}`;
      // Through nginx, from either replica: the uploaded bytes.
      for (let i = 0; i < 4; i++) {
        await must('curl', [
          '-sS',
          '--cacert',
          `${work}/ca.pem`,
          '--resolve',
          `localhost:${httpsPort}:${host}`,
          '-H',
          `Authorization: Bearer ${offender}`,
          '-o',
          `${work}/read.pdf`,
          `https://localhost:${httpsPort}/api/documents/view/${id}`,
        ]);
        const bytes = await Deno.readFile(`${work}/read.pdf`);
        const got = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)))
          .map((b) => b.toString(16).padStart(2, '0')).join('');
        assert.equal(got, expected, `read ${i + 1} through nginx: not the uploaded bytes`);
      }
      const part = await curl(`/api/documents/view/${id}`, [
        '-H',
        `Authorization: Bearer ${offender}`,
        '-r',
        '0-7',
      ]);
      assert.equal(part.status, 206);
      assert.match(part.body, /^%PDF-\d\.\d$/, 'the first 8 bytes');
      assert.match(part.headers, /content-range: bytes 0-7\//i);
      assert.match(part.headers, new RegExp(`etag: "${expected}"`, 'i'));
      assert.equal((await curl(inside, ['-H', `Authorization: Bearer ${offender}`])).status, 404);
      assert.equal((await curl(`/api/documents/view/${id}`)).status, 401, 'no token, no document');

      // The operator's backup of this deployment, as docs/operations.md writes it (the project and the host's
      // backup folder are the test's): pg_dump inside a replica, of the database image's major version.
      const [backupSteps] = await docCommands('docs/operations.md', '### Backups of the compose deployment');
      const backups = `${work}/backups`;
      await Deno.mkdir(backups);
      for (const step of backupSteps) {
        const line = step.replaceAll('podman-compose ', `podman-compose -p ${PROJECT} -f ${COMPOSE} `)
          .replaceAll(
            'label=com.docker.compose.service=api1',
            `label=io.podman.compose.project=${PROJECT} --filter label=com.docker.compose.service=api1`,
          )
          .replaceAll(' /backups/', ` ${backups}/`);
        const ran = await run('sh', ['-ec', line], {
          cwd: `${ROOT}deploy/container`,
          env: { ...PODMAN_ENV, ...env },
        });
        assert.equal(ran.code, 0, `${line}\n${ran.output.slice(-3000)}`);
      }
      const [copied] = [...Deno.readDirSync(backups)].map((e) => `${backups}/${e.name}`);
      const manifest = JSON.parse(await Deno.readTextFile(`${copied}/manifest.json`));
      assert.ok(manifest, 'the manifest came out of the replica');
      const dump = await Deno.readFile(`${copied}/database.dump`);
      assert.equal(new TextDecoder().decode(dump.subarray(0, 5)), 'PGDMP', 'a pg_dump archive');
      const blobFiles = (await run('find', [copied, '-type', 'f', '-path', '*/blobs/*'])).output.trim().split(
        '\n',
      );
      // The letter is in the backup sealed, under a name that says nothing of its content: a blob file is there,
      // and none holds the letter's bytes nor is named by their SHA-256.
      assert.ok(blobFiles.length > 0 && blobFiles[0] !== '', 'the uploaded letter is in the backup');
      assert.ok(!blobFiles.some((f) => f.endsWith(expected)), "a blob named by the letter's SHA-256");
      const run48 = pdf.subarray(pdf.length - 48);
      for (const file of blobFiles) {
        const stored = await Deno.readFile(file);
        assert.ok(!Buffer.from(stored).includes(Buffer.from(run48)), `${file} holds the letter in plaintext`);
      }
      const versions = await podman(['exec', await containerOf('api1'), 'pg_dump', '--version']);
      const server = await podman([
        'exec',
        await containerOf('api1'),
        'sh',
        '-c',
        'psql "$DATABASE_URL" -tAc "show server_version"',
      ]);
      assert.equal(
        /\) (\d+)/.exec(versions)?.[1],
        /^(\d+)/.exec(server.trim())?.[1],
        `${versions} / ${server}`,
      );
      const left = await run('podman', [
        'exec',
        await containerOf('api1'),
        'ls',
        '/var/lib/legal-mail-portal/backups',
      ]);
      assert.equal(left.output.trim(), '', 'the copy in the volume is removed');

      // The two database roles of docs/operations.md, "Database roles": the replicas log in as portal_api, which the
      // doctor finds owns nothing and which PostgreSQL refuses DROP TRIGGER on the audit log; the owner's (and
      // superuser's) password is only the migrate service's, never in a replica's environment.
      const doctor = await run('podman', [
        'exec',
        await containerOf('api1'),
        'deno',
        'run',
        '-A',
        'api/cli/doctor.ts',
      ], {
        env: PODMAN_ENV,
      });
      assert.match(
        doctor.output,
        /^ok database role: DATABASE_URL's role portal_api owns nothing$/m,
        `the doctor in api1:\n${doctor.output}`,
      );
      const replicaEnv = await podman(['exec', await containerOf('api1'), 'env']);
      assert.ok(
        !replicaEnv.includes(env.POSTGRES_PASSWORD),
        "the owner's password is in a replica's environment",
      );
      assert.doesNotMatch(replicaEnv, /^MIGRATION_DATABASE_URL=/m);
      const db = await containerOf('db');
      const trigger = (await podman([
        'exec',
        db,
        'psql',
        '-d',
        'portal',
        '-Atc',
        "select tgname from pg_trigger where tgrelid = 'audit_logs'::regclass and not tgisinternal limit 1",
      ])).trim();
      assert.ok(trigger, 'the audit log has its append-only trigger');
      const drop = await run('podman', [
        'exec',
        '-e',
        `PGPASSWORD=${env.POSTGRES_API_PASSWORD}`,
        db,
        'psql',
        '-h',
        '127.0.0.1',
        '-U',
        'portal_api',
        '-d',
        'portal',
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `drop trigger "${trigger}" on audit_logs`,
      ], { env: PODMAN_ENV });
      assert.notEqual(drop.code, 0, `portal_api dropped the audit log's trigger: ${drop.output}`);
      assert.match(drop.output, /must be owner/, drop.output);

      const uid = (await podman(['exec', await containerOf('api1'), 'id', '-u'])).trim();
      assert.notEqual(uid, '0', 'the API runs as root in its container');
      console.log(
        `container test: images ${((built - started) / 1000).toFixed(0)} s, compose up to ready ` +
          `${((ready - built) / 1000).toFixed(0)} s, checks ${((Date.now() - ready) / 1000).toFixed(0)} s`,
      );
    } catch (error) {
      // Why a replica failed is in its own log, which the tear-down removes.
      for (const api of ['api1', 'api2']) {
        const logs = await run('podman', ['logs', '--tail', '60', await containerOf(api).catch(() => api)], {
          env: PODMAN_ENV,
        });
        console.log(`--- ${api} log ---\n${logs.output}`);
      }
      console.log(`--- diagnosis ---\n${await diagnose()}`);
      throw error;
    } finally {
      await tearDown(env);
      await Deno.remove(work, { recursive: true }).catch(() => {});
      const left =
        (await run('podman', ['ps', '-aq', '--filter', `label=io.podman.compose.project=${PROJECT}`], {
          env: PODMAN_ENV,
        }))
          .output.trim();
      console.log(
        `container test: ${((Date.now() - started) / 1000).toFixed(0)} s in all; containers left: ${
          left ? left : 'none'
        }`,
      );
    }
  },
});
