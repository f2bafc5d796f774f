import assert from 'node:assert/strict';
import { startEmbedded } from '../../api/db/client.ts';

Deno.test('the embedded database listens on a Unix socket in a directory only its owner can enter (0700), not on TCP', async () => {
  const dataDir = await Deno.makeTempDir({ prefix: 'lmp-embedded-' });
  const db = await startEmbedded(`${dataDir}/pgdata`);
  try {
    const run = await Deno.stat(`${dataDir}/pgdata/run`);
    assert.equal(run.mode! & 0o777, 0o700);
    const socket = await Deno.lstat(`${dataDir}/pgdata/run/.s.PGSQL.5432`);
    assert.equal(socket.isSocket, true);
    const [row] = await db.sql<{ addr: string | null }[]>`select inet_server_addr()::text as addr`;
    assert.equal(row.addr, null, 'a Unix-socket session has no server address');
  } finally {
    await db.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
