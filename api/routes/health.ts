/**
 * Probes for a load balancer, systemd or a container runtime. `/live`: the process answers (restart it if
 * not). `/ready`: it can serve — database reachable, every migration applied, blob store writable — else
 * 503, so a balancer sends traffic elsewhere. Unauthenticated and free of data: safe to expose to a balancer.
 */
import { Hono } from 'hono';
import { list_pending_migrations, list_unknown_migrations } from '../db/migrate.ts';
import type { AppEnv } from '../http/context.ts';

/** A check that hangs (a database that stopped answering) counts as failed well before a probe times out. */
const CHECK_TIMEOUT_MS = 3000;

async function check(run: () => Promise<void>): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((
        _,
        reject,
      ) => (timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS))),
    ]);
    return 'ok';
  } catch (error) {
    return (error as Error).message.slice(0, 200) || 'failed';
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes = new Hono<AppEnv>()
  .get('/live', (c) => c.json({ success: true, status: 'live' }))
  .get('/ready', async (c) => {
    const { sql, blobs } = c.var.deps;
    const [database, migrations, blobStore] = await Promise.all([
      check(async () => void await sql`select 1`),
      check(async () => {
        const pending = await list_pending_migrations(sql);
        if (pending.length) throw new Error(`not applied: ${pending.join(', ')}`);
        // Another instance upgraded the schema under this one: its code is older than the tables.
        const unknown = await list_unknown_migrations(sql);
        if (unknown.length) {
          throw new Error(`made by a newer release: ${unknown.map((m) => m.version).join(', ')}`);
        }
      }),
      check(() => blobs.checkWritable()),
    ]);
    const checks = { database, migrations, blobStore };
    if (Object.values(checks).every((v) => v === 'ok')) {
      return c.json({ success: true, status: 'ready', checks });
    }
    const failing = Object.entries(checks).filter(([, v]) => v !== 'ok').map(([k]) => k).join(', ');
    return c.json({ success: false, message: `Not ready: ${failing}.`, checks }, 503);
  });
