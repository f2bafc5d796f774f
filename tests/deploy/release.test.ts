/**
 * The release path an operator follows, from a fresh copy of the repository: a full `npm ci` and
 * `npm run release` on the build machine, then on the "server" the tarball unpacked, `npm ci --omit=dev`
 * (no Vite, no dev dependencies) and `npm start`: /login is served and every demo account signs in.
 * Then the systemd unit's own command line (its permissions exactly) starts on that install and an upload
 * passes the PDF inspector.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { DEMO_ACCOUNTS } from '../../api/cli/demo_seed.ts';
import { must, ROOT, waitFor } from './helpers.ts';
import { makePdf } from '../support/pdfs.ts';
import { unitCommand } from './unit_command.ts';

const NPM_ENV = { PATH: Deno.env.get('PATH') ?? '/usr/bin:/bin', HOME: Deno.env.get('HOME') ?? '/root' };

/** The files of this work tree that git would commit (a clone's, with the edits not yet committed), in `dir`. */
async function freshCopy(dir: string): Promise<void> {
  const files = await must('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
  });
  const tar = await new Deno.Command('tar', {
    args: ['-cf', `${dir}.tar`, '--null', '-T', '-'],
    cwd: ROOT,
    stdin: 'piped',
  })
    .spawn();
  const writer = tar.stdin.getWriter();
  await writer.write(new TextEncoder().encode(files));
  await writer.close();
  assert.ok((await tar.status).success, 'tar of the tracked files failed');
  await must('tar', ['-xf', `${dir}.tar`, '-C', dir]);
  await Deno.remove(`${dir}.tar`);
  // release.mjs lists the tracked files with git, as it does in a clone.
  await must('git', ['init', '-q'], { cwd: dir });
  await must('git', ['add', '-A'], { cwd: dir });
}

Deno.test({
  name:
    'release: npm ci --omit=dev on the unpacked tarball, then npm start, serves /login and signs in every demo account',
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: 'lmp-release-' });
    let server: Deno.ChildProcess | undefined;
    let unitServer: Deno.ChildProcess | undefined;
    try {
      const build = `${work}/build`;
      await Deno.mkdir(build);
      await freshCopy(build);
      await must('npm', ['ci', '--no-audit', '--no-fund'], { cwd: build, env: NPM_ENV });
      await must('npm', ['run', 'release'], { cwd: build, env: NPM_ENV });
      const { version } = JSON.parse(await Deno.readTextFile(`${build}/package.json`));
      const tarball = `${build}/release/legal-mail-portal-${version}.tar.gz`;

      const target = `${work}/target`;
      await Deno.mkdir(target);
      await must('tar', ['-xzf', tarball, '-C', target]);
      const app = `${target}/legal-mail-portal`;
      assert.ok(existsSync(`${app}/pwa/dist/index.html`), 'the tarball carries no pwa/dist/index.html');
      await must('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app, env: NPM_ENV });
      assert.ok(!existsSync(`${app}/node_modules/.bin/vite`), 'a production install must not contain Vite');
      assert.ok(
        existsSync(`${app}/node_modules/.bin/deno`),
        'a production install must contain Deno (npm package deno)',
      );

      const port = 20000 + Math.floor(Math.random() * 20000);
      // Its own process group (setsid execs in place), so the whole npm → node → deno chain is stopped together.
      server = new Deno.Command('setsid', {
        args: ['npm', 'start'],
        cwd: app,
        env: { ...NPM_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: `${target}/data` },
        stdout: 'null',
        stderr: 'piped',
      }).spawn();
      const base = `http://127.0.0.1:${port}`;
      await waitFor(
        'npm start to answer /api/health',
        async () =>
          (await fetch(`${base}/api/health`).then((r) => r.body?.cancel().then(() => r.ok))) === true,
        120_000,
      );

      const login = await fetch(`${base}/login`);
      const html = await login.text();
      assert.equal(login.status, 200, `/login answered ${login.status}`);
      assert.match(html, /<div id="root">|<script type="module"/, '/login is not the PWA shell');

      for (const account of DEMO_ACCOUNTS) {
        const response = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: account.username, password: account.secret }),
        });
        const body = await response.json();
        assert.equal(
          response.status,
          200,
          `${account.role} ${account.username} could not sign in: ${JSON.stringify(body)}`,
        );
        assert.ok(body.token, `${account.username}: no token in the answer`);
      }

      // The systemd unit's own command line on this install (its permissions exactly, its paths moved into
      // the test's folders): it starts, and an upload passes the PDF inspector, the one subprocess allowed.
      Deno.kill(-server.pid, 'SIGTERM');
      await server.status;
      await server.stderr.cancel().catch(() => {});
      server = undefined;
      const state = `${target}/state`;
      await Deno.mkdir(state, { mode: 0o700 });
      const unit = await unitCommand(app, state);
      unitServer = new Deno.Command(unit.program, {
        args: unit.args,
        cwd: app,
        env: { ...unit.env, PORT: String(port + 1), HOST: '127.0.0.1' },
        clearEnv: true,
        stdout: 'null',
        stderr: 'piped',
      }).spawn();
      const unitBase = `http://127.0.0.1:${port + 1}`;
      await waitFor(
        "the unit's command to answer /api/health",
        async () =>
          (await fetch(`${unitBase}/api/health`).then((r) => r.body?.cancel().then(() => r.ok))) === true,
        120_000,
      );
      const token = (await (await fetch(`${unitBase}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'attorney@demo.test', password: 'Demo-Attorney-2026!' }),
      })).json()).token;
      const form = new FormData();
      form.set('recipient_doc_number', '100001');
      form.set('title', 'Unit test letter');
      form.set(
        'file',
        new File([await makePdf({ pages: 2 }) as BlobPart], 'letter.pdf', { type: 'application/pdf' }),
      );
      const upload = await fetch(`${unitBase}/api/documents/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      const uploaded = await upload.json();
      assert.equal(upload.status, 201, `upload under the unit's permissions: ${JSON.stringify(uploaded)}`);
      assert.equal(uploaded.document?.pages ?? uploaded.document?.page_count ?? 2, 2);
      assert.ok(
        existsSync(`${state}/deno-cache`) || existsSync(`${state}/pgdata`),
        'nothing was written to the state directory',
      );
    } finally {
      if (unitServer) {
        // A server that already stopped must not hide the failure that stopped it behind this one.
        try {
          unitServer.kill('SIGTERM');
        } catch { /* already gone */ }
        await unitServer.status;
        await unitServer.stderr.cancel().catch(() => {});
      }
      if (server) {
        Deno.kill(-server.pid, 'SIGTERM');
        await server.status;
        await new Promise((r) => setTimeout(r, 2000));
        try {
          Deno.kill(-server.pid, 'SIGKILL');
        } catch { /* all gone */ }
        await server.stderr.cancel().catch(() => {});
      }
      await Deno.remove(work, { recursive: true }).catch(() => {});
    }
  },
});
