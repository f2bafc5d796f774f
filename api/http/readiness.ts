/**
 * What readiness checks, and how often the costly checks run. The database and the migrations are asked on every
 * call (a read each); the blob store's write probe (a write and a delete in the store) and the offload canary (a
 * request through the front) run at most once per READY_PROBE_SECONDS (60) whatever the traffic: every caller within the
 * interval shares the last result, or the probe still under way. So anonymous callers cannot make the API write to
 * the store, and a balancer polling every second costs the store one write a minute.
 *
 * The checks' messages name hosts, buckets and folders: they go to the log and to the operator's view
 * (GET /api/admin/health), never to the anonymous readiness answer (routes/health.ts).
 */
import type { AppDeps } from '../deps.ts';
import type { Logger } from '../log.ts';
import { FsBlobStore } from '../blobs/fs_store.ts';
import { SealedBlobStore } from '../blobs/sealed_store.ts';
import { list_pending_migrations, list_unknown_migrations } from '../db/migrate.ts';
import { checkOffloadCanary } from './blob_offload.ts';

/**
 * The default of READY_PROBE_SECONDS, one minute: a store failing is seen within it, and a probe's write costs the
 * store 1,440 small objects a day.
 */
export const PROBE_INTERVAL_MS = 60_000;
/** A check that hangs (a database that stopped answering) counts as failed well before a probe times out. */
const CHECK_TIMEOUT_MS = 3000;

/** Each check's result: `ok`, or what failed (for the operator). */
export interface ReadinessReport {
  ready: boolean;
  checks: { database: string; migrations: string; blobStore: string; offload?: string };
  /** When the cached probes last ran (ISO). */
  probedAt: { blobStore: string; offload?: string };
}

interface Probe {
  at: number;
  result: Promise<string>;
}

/** The cached probes of one app (keyed by its deps, so each test's app has its own). */
const probes = new WeakMap<AppDeps, { blobStore?: Probe; offload?: Probe }>();

const now = (deps: AppDeps) => (deps.clock ?? Date.now)();

/** 'ok', or the failure's message. */
async function settle(run: () => Promise<void>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    return (error as Error).message.slice(0, 300) || 'failed';
  }
}

/** `result` within CHECK_TIMEOUT_MS, else 'timed out' (the probe itself goes on, and its result is kept). */
async function bounded(result: Promise<string>): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      result,
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function cached(deps: AppDeps, which: 'blobStore' | 'offload', run: () => Promise<void>): Probe {
  const held = probes.get(deps) ?? {};
  probes.set(deps, held);
  const last = held[which];
  if (last && now(deps) - last.at < deps.config.readyProbeIntervalMs) return last;
  const probe = { at: now(deps), result: settle(run) };
  held[which] = probe;
  return probe;
}

/** True when readiness runs the offload canary: BLOB_OFFLOAD=nginx with OFFLOAD_CHECK_URL. */
export function offloadChecked(deps: AppDeps): boolean {
  return deps.config.blobOffload === 'nginx' && !!deps.config.offloadCheckUrl && !!fsStoreOf(deps.blobs);
}

/** The fs store, beneath the sealing layer: the canary is a plaintext file, as the blobs nginx may send. */
function fsStoreOf(blobs: AppDeps['blobs']): FsBlobStore | undefined {
  const store = blobs instanceof SealedBlobStore ? blobs.inner : blobs;
  return store instanceof FsBlobStore ? store : undefined;
}

/** The offload canary's last result (run now when it is older than a minute); undefined when it is not run. */
export function offloadCanary(deps: AppDeps): Probe | undefined {
  if (!offloadChecked(deps)) return undefined;
  const blobsDir = fsStoreOf(deps.blobs)!.root;
  return cached(
    deps,
    'offload',
    () => checkOffloadCanary({ blobsDir, checkUrl: deps.config.offloadCheckUrl! }),
  );
}

/** Every check, the costly ones from their cache. */
export async function readiness(deps: AppDeps): Promise<ReadinessReport> {
  const { sql, blobs } = deps;
  const write = cached(deps, 'blobStore', () => blobs.checkWritable());
  const canary = offloadCanary(deps);
  const [database, migrations, blobStore, offload] = await Promise.all([
    bounded(settle(async () => void await sql`select 1`)),
    bounded(settle(async () => {
      const pending = await list_pending_migrations(sql);
      if (pending.length) throw new Error(`not applied: ${pending.join(', ')}`);
      // Another instance upgraded the schema under this one: its code is older than the tables.
      const unknown = await list_unknown_migrations(sql);
      if (unknown.length) {
        throw new Error(`made by a newer release: ${unknown.map((m) => m.version).join(', ')}`);
      }
    })),
    bounded(write.result),
    canary ? bounded(canary.result) : undefined,
  ]);
  const checks = { database, migrations, blobStore, ...(offload ? { offload } : {}) };
  return {
    ready: Object.values(checks).every((v) => v === 'ok'),
    checks,
    probedAt: {
      blobStore: new Date(write.at).toISOString(),
      ...(canary ? { offload: new Date(canary.at).toISOString() } : {}),
    },
  };
}

/**
 * How often the anonymous readiness answer logs the details of one unchanged cause of not being ready: a monitor
 * or balancer polling every second while the store is down writes one line a minute, not one a call, and the
 * line counts the answers it stands for. A new cause is logged at once.
 */
export const NOT_READY_LOG_INTERVAL_MS = 60_000;

/** The cause last logged per app (keyed by its deps, as the probes), when, and the answers not logged since. */
const notReadyLogged = new WeakMap<AppDeps, { cause: string; at: number; quiet: number }>();

/**
 * Logs what readiness found, for the anonymous answer: a failing check's details when the cause is new (or changed)
 * or was last logged NOT_READY_LOG_INTERVAL_MS ago; the return to ready once, after a logged failure.
 */
export function logReadiness(deps: AppDeps, log: Logger, report: ReadinessReport): void {
  const last = notReadyLogged.get(deps);
  if (report.ready) {
    if (last) {
      notReadyLogged.delete(deps);
      log.info('ready again', { not_logged_since_last: last.quiet });
    }
    return;
  }
  const cause = JSON.stringify(report.checks);
  const at = now(deps);
  if (last && last.cause === cause && at - last.at < NOT_READY_LOG_INTERVAL_MS) {
    last.quiet++;
    return;
  }
  notReadyLogged.set(deps, { cause, at, quiet: 0 });
  // How many not-ready answers since the previous line went unlogged: how hard the endpoint was polled.
  log.warn('not ready', { ...report.checks, ...(last ? { not_logged_since_last: last.quiet } : {}) });
}
