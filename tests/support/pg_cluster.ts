/**
 * A new, empty PostgreSQL cluster of the machine's own server (Debian's /usr/lib/postgresql/<major>), for the
 * procedures an operator runs on a fresh cluster: roles are per cluster, so they cannot be tried on the shared
 * test server. Trust authentication on 127.0.0.1 and a free port; run as the `postgres` system user, since the
 * server refuses to run as root. About two seconds to make and start.
 */
import { freePort } from './instance.ts';

export interface PgCluster {
  host: string;
  port: number;
  /** A superuser connection string (user `postgres`) to `database`, default `postgres`. */
  url(database?: string): string;
  stop(): Promise<void>;
}

async function postgresBin(): Promise<string> {
  const majors: number[] = [];
  for await (const entry of Deno.readDir('/usr/lib/postgresql')) {
    if (/^\d+$/.test(entry.name)) majors.push(Number(entry.name));
  }
  if (!majors.length) {
    throw new Error('no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)');
  }
  return `/usr/lib/postgresql/${Math.max(...majors)}/bin`;
}

async function asPostgres(program: string, args: string[]): Promise<void> {
  const root = Deno.uid() === 0;
  const { code, stderr } = await new Deno.Command(root ? 'runuser' : program, {
    args: root ? ['-u', 'postgres', '--', program, ...args] : args,
    stdout: 'null',
    stderr: 'piped',
  }).output();
  if (code !== 0) throw new Error(`${program} ${args.join(' ')}: ${new TextDecoder().decode(stderr)}`);
}

/** Makes and starts a cluster; `stop()` stops it and removes its folder. */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = await postgresBin();
  const dir = await Deno.makeTempDir({ prefix: 'lmp-pgcluster-' });
  if (Deno.uid() === 0) {
    await new Deno.Command('chown', { args: ['postgres:postgres', dir] }).output();
  }
  const data = `${dir}/data`;
  await asPostgres(`${bin}/initdb`, [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = freePort();
  await asPostgres(`${bin}/pg_ctl`, [
    '-D',
    data,
    '-w',
    '-l',
    `${dir}/server.log`,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    host: '127.0.0.1',
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      await asPostgres(`${bin}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
