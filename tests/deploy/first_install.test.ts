/**
 * A new installation from docs/operations.md alone, on a new PostgreSQL cluster: the "Database roles" commands as
 * written (the database host replaced by the test cluster's), the API started as its own role, then "First
 * administrator"'s command; the printed code sets the password, and the administrator's sign-in goes on to
 * second-factor enrolment. No demo data at any step.
 */
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { docCommands } from '../support/doc_commands.ts';
import { freePort, ROOT } from '../support/instance.ts';
import { startPgCluster } from '../support/pg_cluster.ts';
import { makeFakeDist } from '../support/pwa_dist.ts';
import { run, waitFor } from './helpers.ts';

const DOC = 'docs/operations.md';
const DOC_HOST = 'db.example.gov:5432';
const PASSWORD = 'Granite-Harbor-Lantern-73';

Deno.test({
  name:
    'a new installation from the documents: roles, migration, the API as its role, the first administrator signs in',
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const [superuserSteps, portalSteps] = await docCommands(DOC, '### Database roles');
    const [[adminCreate]] = await docCommands(DOC, '## First administrator');
    const [migrateStep, startStep] = portalSteps;
    assert.match(migrateStep, /npm run db:migrate$/);
    assert.match(startStep, /npm start$/);

    const cluster = await startPgCluster();
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-first-install-' });
    const here = (line: string) => line.replaceAll(DOC_HOST, `${cluster.host}:${cluster.port}`);
    const superuser = postgres(cluster.url('postgres'), { max: 1, onnotice: () => {} });
    const legalmail = postgres(cluster.url('legalmail'), { max: 1, onnotice: () => {} });
    let server: Deno.ChildProcess | undefined;
    try {
      // 1. As the cluster's superuser (libpq's environment names the server).
      const libpq = { PGHOST: cluster.host, PGPORT: String(cluster.port), PGUSER: 'postgres' };
      for (const line of superuserSteps) {
        const ran = await run('sh', ['-ec', line], { env: libpq });
        assert.equal(ran.code, 0, `${line}\n${ran.output}`);
      }

      // 2. As the portal's user: migrate as the owner, which the command names (never with a password).
      const service = { DATA_DIR: dataDir, PGHOST: '', PGPORT: '', PGUSER: '' };
      const migrated = await run('sh', ['-ec', here(migrateStep)], { env: service });
      assert.equal(migrated.code, 0, migrated.output);
      assert.match(
        migrated.output,
        new RegExp(
          `Migrating PostgreSQL database "legalmail" on 127\\.0\\.0\\.1:${cluster.port} as legalmail_owner`,
        ),
      );
      assert.match(migrated.output, /Applied migrations: 0001, /);
      const tables = await legalmail<{ tableowner: string }[]>`
        select distinct tableowner from pg_tables where schemaname = 'public'`;
      assert.deepEqual(tables.map((r) => r.tableowner), ['legalmail_owner'], 'the tables are in PostgreSQL');

      // The API as its own role, started as the document writes it.
      const port = freePort();
      const portalUrl = `http://127.0.0.1:${port}`;
      // Its own process group (setsid), so that the end of the test stops npm, the launcher and the API together.
      server = new Deno.Command('setsid', {
        args: ['sh', '-ec', here(startStep)],
        cwd: ROOT,
        env: {
          ...service,
          PORT: String(port),
          HOST: '127.0.0.1',
          PORTAL_URL: portalUrl,
          SKIP_PWA_BUILD: '1',
          PWA_DIST: await makeFakeDist(),
          LOG_LEVEL: 'silent',
          NO_COLOR: '1',
        },
        stdout: 'piped',
        stderr: 'piped',
      }).spawn();
      const output: string[] = [];
      for (const stream of [server.stdout, server.stderr]) {
        (async () => {
          for await (const chunk of stream.pipeThrough(new TextDecoderStream())) output.push(chunk);
        })();
      }
      let exited = false;
      server.status.then(() => exited = true);
      await waitFor(
        'the API as legalmail_api to be ready',
        async () => {
          if (exited) return true;
          const ready = await fetch(`${portalUrl}/api/health/ready`);
          await ready.body?.cancel();
          return ready.status === 200;
        },
        90_000,
      ).catch((error) => {
        throw new Error(`${error.message}\n${output.join('').slice(-3000)}`);
      });
      assert.ok(!exited, `npm start exited:\n${output.join('').slice(-3000)}`);
      const sessions = await superuser<{ usename: string }[]>`
        select distinct usename from pg_stat_activity where datname = 'legalmail' and usename <> 'postgres'`;
      assert.deepEqual(sessions.map((r) => r.usename), ['legalmail_api'], 'the API connects as its own role');
      const owned = await superuser<{ n: number }[]>`
        select count(*)::int as n from pg_class c join pg_roles r on r.oid = c.relowner
        where r.rolname = 'legalmail_api'`;
      assert.equal(owned[0].n, 0, "the API's role owns nothing");

      // 3. The first administrator, with the service's environment.
      const apiUrl = `postgres://legalmail_api@${cluster.host}:${cluster.port}/legalmail`;
      const made = await run('sh', ['-ec', adminCreate], {
        env: { ...service, DATABASE_URL: apiUrl, PORTAL_URL: portalUrl },
      });
      assert.equal(made.code, 0, made.output);
      const link = made.output.trim().split('\n').pop()!;
      const match = new RegExp(`^${portalUrl.replaceAll('.', '\\.')}/reset-password#([A-Za-z0-9_-]{40,})$`)
        .exec(link);
      assert.ok(match, `the last line is the link alone:\n${made.output}`);
      const email = /--email (\S+)/.exec(adminCreate)![1];

      const set = await fetch(`${portalUrl}/api/auth/reset-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: match[1], newPassword: PASSWORD }),
      });
      assert.equal(set.status, 200, await set.text());
      const signIn = await fetch(`${portalUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password: PASSWORD, entity: 'default' }),
      });
      const step = await signIn.json();
      assert.equal(signIn.status, 200, JSON.stringify(step));
      assert.equal(step.mfaEnrollmentRequired, true, 'admins enrol a second factor first');
      const config = await (await fetch(`${portalUrl}/api/config`)).json();
      assert.equal(config.data.departmentAbbreviation, /--abbreviation (\S+)/.exec(adminCreate)![1]);
      const seeded = await legalmail<{ n: number }[]>`
        select count(*)::int as n from audit_logs where event_type = 'demo_data_seeded'`;
      assert.equal(seeded[0].n, 0, 'never seeded with the demo');
    } finally {
      if (server) {
        await run('kill', ['-TERM', '--', `-${server.pid}`]);
        await server.status;
      }
      await superuser.end();
      await legalmail.end();
      await cluster.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
