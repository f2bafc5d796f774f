/**
 * The demo seed: each account's stored hash is its published secret's (and no other's), each account signs in
 * with it, and a database that already holds an entity is left alone.
 */
import assert from 'node:assert/strict';
import { DEMO_ACCOUNTS, seedDemo } from '../../api/cli/demo_seed.ts';
import { verifySecret } from '../../api/domain/passwords.ts';
import { call, createTestApp, DB_TEST, DEMO, type TestApp } from '../support/app.ts';

Deno.test("each demo account's hash is its own secret's, with a salt of its own", async () => {
  for (const account of DEMO_ACCOUNTS) {
    assert.ok(await verifySecret(account.secret, account.hash), account.username);
    assert.equal(await verifySecret(`${account.secret}x`, account.hash), false, account.username);
  }
  const salts = DEMO_ACCOUNTS.map((a) => a.hash.split('$')[2]);
  assert.equal(new Set(salts).size, salts.length);
});

let t: TestApp;

Deno.test({
  name: "the seeded accounts sign in with the README's secrets, and a second seed adds nothing",
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    try {
      for (const [username, secret] of Object.values(DEMO)) {
        const r = await call(t, 'POST', '/api/auth/login', {
          body: { username, password: secret, entity: 'default' },
        });
        assert.equal(r.status, 200, `${username}: ${JSON.stringify(r.body)}`);
      }
      assert.equal(await seedDemo(t.deps.sql), false);
      const [{ count }] = await t.deps.sql<{ count: number }[]>`select count(*)::int as count from users`;
      assert.equal(count, DEMO_ACCOUNTS.length);
    } finally {
      await t.close();
    }
  },
});
