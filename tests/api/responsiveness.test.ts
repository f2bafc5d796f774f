import assert from 'node:assert/strict';
import { call, createTestApp, DB_TEST, DEMO } from '../support/app.ts';

Deno.test({
  name: 'a login hashing at full cost does not hold up other requests',
  ...DB_TEST,
  fn: async () => {
    const t = await createTestApp();
    try {
      const order: string[] = [];
      const logins = Array.from(
        { length: 4 },
        () =>
          call(t, 'POST', '/api/auth/login', { body: { username: DEMO.admin[0], password: DEMO.admin[1] } })
            .then(() => order.push('login')),
      );
      // Let the logins reach their hashing before asking for something cheap.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const health = call(t, 'GET', '/api/config').then((r) => {
        order.push('config');
        return r;
      });
      const [r] = await Promise.all([health, ...logins]);
      assert.equal(r.status, 200);
      assert.equal(order[0], 'config', `order was ${order.join(', ')}`);
    } finally {
      await t.close();
    }
  },
});
