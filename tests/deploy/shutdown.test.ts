/**
 * SIGTERM: a request in flight (its body still arriving) completes; requests arriving meanwhile get 503; then
 * the listener closes, new connections are refused and the process exits 0.
 */
import assert from 'node:assert/strict';
import { startInstance } from '../support/instance.ts';

Deno.test({
  name: 'on SIGTERM a request in flight completes, later ones get 503, then new connections are refused',
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-shutdown-' });
    const api = await startInstance({ DATA_DIR: dataDir, DEMO_SEED: '1', PWA_DIST: `${dataDir}/no-pwa` });
    try {
      // A sign-in whose body arrives slowly, as from a facility's poor line: sent in two halves around SIGTERM.
      const body = JSON.stringify({
        username: 'attorney@demo.test',
        password: 'Demo-Attorney-2026!',
        entity: 'default',
      });
      const conn = await Deno.connect({ hostname: '127.0.0.1', port: api.port });
      const encoder = new TextEncoder();
      await conn.write(encoder.encode(
        `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 20)}`,
      ));
      await new Promise((r) => setTimeout(r, 500));
      api.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));

      // While the upload's body is still arriving, new requests are turned away for a balancer to retry elsewhere.
      const late = await fetch(`${api.url}/api/health`);
      assert.equal(late.status, 503);
      assert.equal((await late.json()).success, false);

      await conn.write(encoder.encode(body.slice(20)));
      const answer = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
      assert.match(answer, /^HTTP\/1\.1 200 /, 'the request in flight is answered');
      assert.match(answer, /"token":"/);

      // Then the listener closes: a new connection is refused.
      let refused = false;
      for (let i = 0; i < 50 && !refused; i++) {
        try {
          (await Deno.connect({ hostname: '127.0.0.1', port: api.port })).close();
          await new Promise((r) => setTimeout(r, 100));
        } catch {
          refused = true;
        }
      }
      assert.ok(refused, 'new connections are refused');

      const { code } = await api.child.status;
      assert.equal(code, 0);
      const log = api.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      assert.ok(log.some((e) => e.msg.startsWith('shutting down') && e.signal === 'SIGTERM'));
      assert.ok(log.some((e) => e.msg === 'request' && e.route === '/api/auth/login' && e.status === 200));
      assert.ok(log.some((e) => e.msg === 'stopped'));
      assert.ok(
        !log.some((e) => e.msg.startsWith('shutdown deadline passed')),
        'drained well before the deadline',
      );
    } finally {
      await api.stop('SIGKILL');
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
