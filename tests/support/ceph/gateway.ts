/**
 * A throwaway Ceph object gateway for the tests and bench:stream: one monitor, one OSD on memstore (RAM, no block
 * device, no root) and one RADOS Gateway, on loopback, on ports picked free at start so that parallel runs on one
 * machine do not collide. Real SigV4 (a wrong secret gets 403), real multipart, real Range: Debian's packages
 * `radosgw ceph-mon ceph-osd ceph-common` (.ci/run installs them).
 *
 *   deno run -A tests/support/ceph/gateway.ts start DIR   # prints the TEST_S3_* variables as JSON; DIR must not exist
 *   deno run -A tests/support/ceph/gateway.ts stop DIR    # the gateway, then the OSD, then the monitor
 *   deno run -A tests/support/ceph/gateway.ts run -- CMD  # start, run CMD with the TEST_S3_* variables, stop
 *
 * The daemons outlive the start command (they fork into the background). A run whose owner died without stopping
 * them is stopped by the next start (each folder records its owner's pid).
 */

/** Where the TEST_S3_* variables point: the gateway's endpoint and a user of its own. */
export interface Gateway {
  dir: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const DAEMONS = ['client.rgw', 'osd.0', 'mon.a'] as const; // in the order they stop
const PREFIX = 'lmp-ceph-';
/** The gateway's first start creates its pools: a few seconds here, far more on a loaded machine. */
const START_TIMEOUT_MS = 120_000;
/** A daemon that does not stop on SIGTERM within this is killed (a gateway whose OSD died first waits 120 s). */
const STOP_TIMEOUT_MS = 30_000;

/** The variables the test suites and bench:stream read. */
export function gatewayEnv(gateway: Gateway): Record<string, string> {
  return {
    TEST_S3_ENDPOINT: gateway.endpoint,
    TEST_S3_REGION: gateway.region,
    TEST_S3_ACCESS_KEY_ID: gateway.accessKeyId,
    TEST_S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
  };
}

/** True when Debian's Ceph daemons and tools are installed. */
export function cephInstalled(): boolean {
  return ['radosgw', 'ceph-mon', 'ceph-osd', 'ceph', 'radosgw-admin', 'monmaptool'].every((tool) => {
    try {
      return Deno.statSync(`/usr/bin/${tool}`).isFile;
    } catch {
      return false;
    }
  });
}

function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** `count` consecutive free ports (the OSD's messenger binds a few inside the range it is given). */
function freeRange(count: number): number {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const held: Deno.Listener[] = [];
    try {
      for (let p = base; p < base + count; p++) held.push(Deno.listen({ hostname: '127.0.0.1', port: p }));
      return base;
    } catch {
      // taken: another base
    } finally {
      for (const l of held) l.close();
    }
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

async function run(command: string, args: string[], options: { timeoutMs?: number } = {}): Promise<string> {
  const child = new Deno.Command(command, {
    args,
    stdin: 'null',
    stdout: 'piped',
    stderr: 'piped',
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const out = await child.output();
  const text = new TextDecoder();
  if (!out.success) {
    throw new Error(`${command} ${args.join(' ')} failed: ${text.decode(out.stderr).trim().slice(-2000)}`);
  }
  return text.decode(out.stdout);
}

function config(dir: string, ports: { mon: number; osd: number; rgw: number }, fsid: string): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${ports.mon}
mon initial members = a
public addr = 127.0.0.1
# No cephx inside a throwaway cluster on loopback (the gateway's own S3 users still sign with SigV4).
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms bind msgr1 = false
ms bind port min = ${ports.osd}
ms bind port max = ${ports.osd + 19}
run dir = ${dir}/run
pid file = ${dir}/run/$name.pid
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
log to stderr = false
err to stderr = false
# One node: one copy of everything, healthy, few placement groups.
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd crush chooseleaf type = 0
mon warn on pool no redundancy = false
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon max pg per osd = 1000
# No ceph-mgr: without this grace the health turns to MGR_DOWN after 120 s.
mon mgr mkfs grace = 315360000

[mon.a]
mon data = ${dir}/mon
# Without it each pool creation takes about a second, and the gateway's first start 9-15 s.
paxos propose interval = 0.05

[osd.0]
osd data = ${dir}/osd
osd objectstore = memstore
# The OSD's capacity as Ceph counts it (memstore keeps in RAM only what is stored).
memstore device bytes = 4294967296

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${ports.rgw}
rgw data = ${dir}/rgw
rgw enable usage log = false
rgw enable ops log = false
# Deleted objects' bytes leave the memstore OSD within seconds, not the default two hours.
rgw gc obj min wait = 2
rgw gc processor period = 5
rgw gc processor max time = 5
`;
}

function alive(pid: number): boolean {
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).includes(') Z ');
  } catch {
    return false;
  }
}

/** The daemon's pid, when it runs with this folder's ceph.conf (never another process that got its number). */
function daemonPid(dir: string, name: string): number | undefined {
  let pid: number;
  try {
    pid = Number(Deno.readTextFileSync(`${dir}/run/${name}.pid`).trim());
  } catch {
    return undefined;
  }
  try {
    const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    return cmdline.includes(`${dir}/ceph.conf`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The gateway's and the OSD's pids: the processes that carry the bytes (bench:stream counts their CPU). */
export function daemonPids(dir: string): number[] {
  return ['client.rgw', 'osd.0'].map((name) => daemonPid(dir, name)).filter((pid): pid is number => !!pid);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stops the gateway, then the OSD, then the monitor, and removes the folder. */
export async function stopGateway(dir: string): Promise<void> {
  for (const name of DAEMONS) {
    const pid = daemonPid(dir, name);
    if (!pid) continue;
    try {
      Deno.kill(pid, 'SIGTERM');
    } catch { /* gone */ }
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    if (alive(pid)) {
      try {
        Deno.kill(pid, 'SIGKILL');
      } catch { /* gone */ }
    }
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}

/** Stops the gateways of earlier runs whose owner process is gone (a runner killed before it could stop them). */
async function stopOrphans(): Promise<void> {
  const tmp = Deno.env.get('TMPDIR') ?? '/tmp';
  for (const entry of Deno.readDirSync(tmp)) {
    if (!entry.isDirectory || !entry.name.startsWith(PREFIX)) continue;
    const dir = `${tmp}/${entry.name}`;
    let owner: number;
    try {
      owner = Number(Deno.readTextFileSync(`${dir}/owner`).trim());
    } catch {
      continue;
    }
    if (!alive(owner)) await stopGateway(dir);
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`the Ceph gateway did not start: ${what}`);
}

/**
 * Starts a one-node cluster and its gateway in `dir` (a new folder; default a temporary one) and makes an S3 user.
 * `owner`: the process whose death makes the folder an orphan for the next start to stop (default: this one).
 */
export async function startGateway(options: { dir?: string; owner?: number } = {}): Promise<Gateway> {
  if (!cephInstalled()) {
    throw new Error('Ceph is not installed: apt-get install radosgw ceph-mon ceph-osd ceph-common');
  }
  await stopOrphans();
  const dir = options.dir ?? await Deno.makeTempDir({ prefix: PREFIX });
  await Deno.mkdir(dir, { recursive: true });
  for (const sub of ['run', 'log', 'mon', 'osd', 'rgw']) await Deno.mkdir(`${dir}/${sub}`);
  await Deno.writeTextFile(`${dir}/owner`, String(options.owner ?? Deno.pid));
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    const ports = { mon: freePort(), osd: freeRange(20), rgw: freePort() };
    const fsid = crypto.randomUUID();
    const conf = `${dir}/ceph.conf`;
    await Deno.writeTextFile(conf, config(dir, ports, fsid));
    await run('monmaptool', [
      '--create',
      '--fsid',
      fsid,
      '--addv',
      'a',
      `[v2:127.0.0.1:${ports.mon}]`,
      `${dir}/monmap`,
    ]);
    await run('ceph-mon', ['-c', conf, '-i', 'a', '--mkfs', '--monmap', `${dir}/monmap`]);
    await run('ceph-mon', ['-c', conf, '-i', 'a']);
    const osdUuid = crypto.randomUUID();
    await run('ceph', ['-c', conf, '--connect-timeout', '30', 'osd', 'new', osdUuid]);
    await run('ceph-osd', ['-c', conf, '-i', '0', '--mkfs', '--osd-uuid', osdUuid]);
    await run('ceph-osd', ['-c', conf, '-i', '0']);
    await waitFor('the OSD is up', async () => {
      const status = JSON.parse(
        await run('ceph', ['-c', conf, '--connect-timeout', '10', 'osd', 'stat', '-f', 'json']),
      );
      return (status.num_up_osds ?? status.osdmap?.num_up_osds) === 1;
    }, deadline);
    const gateway: Gateway = {
      dir,
      endpoint: `http://127.0.0.1:${ports.rgw}`,
      region: 'us-east-1',
      accessKeyId: `LMP${randomHex(8).toUpperCase()}`,
      secretAccessKey: randomHex(20),
    };
    // Creates the gateway's pools on the way (the slow part of a first start).
    await run('radosgw-admin', [
      '-c',
      conf,
      '-n',
      'client.rgw',
      'user',
      'create',
      '--uid=portal-tests',
      '--display-name=portal tests',
      `--access-key=${gateway.accessKeyId}`,
      `--secret=${gateway.secretAccessKey}`,
    ], { timeoutMs: Math.max(1000, deadline - Date.now()) });
    await run('radosgw', ['-c', conf, '-n', 'client.rgw']);
    await waitFor('the gateway answers', async () => {
      const r = await fetch(`${gateway.endpoint}/`, { signal: AbortSignal.timeout(2000) });
      await r.body?.cancel();
      return r.status === 200 || r.status === 403;
    }, deadline);
    await Deno.writeTextFile(`${dir}/gateway.json`, JSON.stringify(gateway));
    return gateway;
  } catch (error) {
    const logs = await Deno.readTextFile(`${dir}/log/client.rgw.log`).catch(() => '');
    await stopGateway(dir);
    throw new Error(`${(error as Error).message}${logs ? `\n${logs.slice(-1500)}` : ''}`);
  }
}

if (import.meta.main) {
  const [command, dir, ...rest] = Deno.args;
  if (command === 'start' && dir) {
    const owner = Number(Deno.env.get('GATEWAY_OWNER_PID') ?? Deno.ppid);
    console.log(JSON.stringify(gatewayEnv(await startGateway({ dir, owner }))));
  } else if (command === 'stop' && dir) {
    await stopGateway(dir);
  } else if (command === 'run' && (dir === '--' ? rest : [dir, ...rest]).length > 0) {
    const [cmd, ...args] = dir === '--' ? rest : [dir, ...rest];
    const gateway = await startGateway();
    let code = 1;
    try {
      const child = new Deno.Command(cmd, { args, env: gatewayEnv(gateway) }).spawn();
      code = (await child.status).code;
    } finally {
      await stopGateway(gateway.dir);
    }
    Deno.exit(code);
  } else {
    console.error('Usage: gateway.ts start DIR | stop DIR | run -- COMMAND [ARGS]');
    Deno.exit(2);
  }
}
