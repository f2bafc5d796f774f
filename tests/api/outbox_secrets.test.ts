/**
 * No usable secret rests in the database: a set-password code is sealed in the outbox under a key kept outside
 * the database, handed to the relay only, and dropped once sent. A dump of the database (pg_dump on PostgreSQL,
 * every table's rows on PGlite) taken while a link is live opens no account; the e-mail the relay received does.
 */
import assert from 'node:assert/strict';
import { libpqEnv } from '../../api/cli/pg_tools.ts';
import { migrate } from '../../api/db/migrate.ts';
import { deliverDueEmails } from '../../api/email/worker.ts';
import { call, createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { createTestDatabase, testBackend } from '../support/db.ts';
import { makeUser } from '../support/factories.ts';
import { type AppRelay, startAppRelay } from '../support/smtp.ts';

let t: TestApp;
let admin: string;
let mail: AppRelay;

Deno.test({
  name: 'setup: app, relay',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp({ PORTAL_URL: 'https://mail.example.test/' });
    admin = await signIn(t, ...DEMO.admin);
    mail = await startAppRelay(t);
  },
});

/** Everything a copy of the database holds, as text: pg_dump's output, or on PGlite every table's rows. */
async function dump(): Promise<string> {
  if (testBackend() === 'postgres') {
    const out = await new Deno.Command('pg_dump', {
      args: ['--no-owner'],
      env: libpqEnv(t.db.url!),
      stdout: 'piped',
      stderr: 'piped',
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  }
  const tables = await t.deps.sql<{ name: string }[]>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'`;
  const text: string[] = [];
  for (const { name } of tables) {
    const rows = await t.deps.sql.unsafe(`select * from "${name}"`);
    text.push(JSON.stringify(rows, (_key, value) => {
      if (value instanceof Uint8Array) {
        // A binary column, both ways a thief might read it: as hex and as text.
        return `${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')} ${
          new TextDecoder().decode(value)
        }`;
      }
      return value;
    }));
  }
  return text.join('\n');
}

/** Every string in `text` shaped like a set-password code (43 characters of base64url), and any after a '#'. */
function candidates(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z0-9_-]+/g)) if (m[0].length === 43) found.add(m[0]);
  for (const m of text.matchAll(/#([A-Za-z0-9_-]{16,})/g)) found.add(m[1]);
  return found;
}

const codeIn = (body: string) => /reset-password#([A-Za-z0-9_-]{20,})/.exec(body)?.[1];

let tried = 0;
/** Tries a code on the reset route from an address of its own (so no throttle hides a working code). */
async function tryCode(token: string): Promise<number> {
  tried++;
  const r = await call(t, 'POST', '/api/auth/reset-password', {
    body: { token, newPassword: 'Thistle-Harbour-Quill-73' },
    ip: `10.${90 + Math.floor(tried / 250)}.${tried % 250}.7`,
  });
  return r.status;
}

Deno.test({
  name:
    'a dump taken while set-password links are live holds no working code; the e-mails the relay received do',
  ...DB_TEST,
  fn: async () => {
    const forgetful = await makeUser(t);
    const reset = await makeUser(t);
    assert.equal(
      (await call(t, 'POST', '/api/auth/forgot-password', {
        body: { email: forgetful.username, entity: 'default' },
        ip: '10.89.0.1',
      })).status,
      200,
    );
    assert.equal(
      (await call(t, 'POST', `/api/admin/users/${reset.id}/password-reset`, { token: admin })).status,
      200,
    );

    // Queued, not yet sent: the outbox holds the messages, the codes must not be readable in it.
    const queued = await dump();
    assert.equal((await deliverDueEmails(t.deps.sql, mail.options)).failed, 0);
    const sent = await dump();

    const thief = new Set([...candidates(queued), ...candidates(sent)]);
    for (const code of thief) {
      assert.notEqual(await tryCode(code), 200, `a code from the dump worked: ${code}`);
    }

    // The admin's outbox screen shows no code either.
    const listed = await call(t, 'GET', '/api/admin/email-outbox', { token: admin });
    assert.equal(listed.status, 200);

    // The relay got the real messages, and their codes work (once).
    for (const user of [forgetful, reset]) {
      const message = mail.relay.received.find((m) => m.to.includes(user.username));
      assert.ok(message, `no e-mail reached the relay for ${user.username}`);
      const code = codeIn(message.body);
      assert.ok(code, message.body);
      assert.ok(!thief.has(code), 'the code was in the dump');
      assert.ok(!JSON.stringify(listed.body).includes(code), 'the outbox screen shows the code');
      assert.equal(await tryCode(code), 200);
    }

    // Once sent, nothing sealed is left behind either.
    const [left] = await t.deps.sql<{ n: number }[]>`
      select count(*)::int as n from email_outbox where sealed_secret is not null`;
    assert.equal(left.n, 0);
  },
});

Deno.test({
  name: 'a message whose code cannot be opened (another key) fails for good and never reaches the relay',
  ...DB_TEST,
  fn: async () => {
    const staff = await makeUser(t);
    await call(t, 'POST', '/api/auth/forgot-password', {
      body: { email: staff.username, entity: 'default' },
      ip: '10.89.0.2',
    });
    const round = await deliverDueEmails(t.deps.sql, {
      ...mail.options,
      secretKey: new TextEncoder().encode('another-key-'.repeat(4)),
    });
    assert.equal(round.failed, 1);
    assert.ok(!mail.relay.received.some((m) => m.to.includes(staff.username)));
    const [row] = await t.deps.sql<{ status: string; sealed: boolean; body: string }[]>`
      select status, sealed_secret is not null as sealed, body from email_outbox where to_address = ${staff.username}`;
    assert.equal(row.status, 'failed');
    assert.equal(row.sealed, false);
  },
});

Deno.test({
  name: 'the upgrade removes codes written in clear before it, and ends the links they open',
  ...DB_TEST,
  fn: async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      // The migrations before this change, then a set-password e-mail as it was queued then.
      const all = new URL('../../db/migrations/', import.meta.url);
      const before = await Deno.makeTempDir({ prefix: 'lmp-migrations-' });
      for await (const entry of Deno.readDir(all)) {
        if (entry.name < '0032') await Deno.copyFile(new URL(entry.name, all), `${before}/${entry.name}`);
      }
      await migrate(db.sql, new URL(`file://${before}/`));
      await Deno.remove(before, { recursive: true });
      const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';
      assert.equal(token.length, 43);
      const [entity] = await db.sql<{ id: string }[]>`
        insert into entities (name, slug) values ('Department', 'default') returning id`;
      const [user] = await db.sql<{ id: string }[]>`
        insert into users (entity_id, role, first_name, last_name, email, password_hash)
        values (${entity.id}, 'attorney', 'Old', 'Link', 'old-link@example.test', 'x') returning id`;
      await db.sql`insert into password_reset_tokens (token_hash, user_id, purpose, expires_at)
                   values ('h', ${user.id}, 'forgotten', now() + interval '30 minutes')`;
      for (const status of ['sent', 'pending']) {
        await db.sql`insert into email_outbox (kind, to_address, subject, body, status)
                     values ('password_reset_requested', 'old-link@example.test', 'Set a new password',
                             ${`Open https://mail.example.test/reset-password#${token} within 30 minutes.`},
                             ${status})`;
      }
      await migrate(db.sql);
      const rows = await db.sql<{ body: string; status: string }[]>`select body, status from email_outbox`;
      assert.equal(rows.length, 2);
      for (const row of rows) {
        assert.ok(!row.body.includes(token), row.body);
        assert.match(row.body, /reset-password#\[code removed\]/);
        assert.notEqual(row.status, 'pending');
      }
      const [link] = await db.sql<{ used: boolean }[]>`
        select used_at is not null as used from password_reset_tokens`;
      assert.equal(link.used, true);
    } finally {
      await db.drop();
    }
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await mail.close();
    await t.close();
  },
});
