/**
 * The operator's metrics (`GET /metrics`, only with METRICS_TOKEN): one prom-client registry per app, so several
 * apps in one process (the tests) never mix their counts. Every label is a bounded set the code defines (a
 * route pattern, a status, a catalogue code, an operation), never what a request carried: no DOC number, e-mail
 * address, id or query ever becomes a label.
 *
 * Counted as requests pass (per process): requests by route pattern, method and status with their durations;
 * sign-in refusals and throttles by their catalogue code; blob store calls that failed. Read when scraped: the
 * e-mail outbox (from the database, so every instance reports the same backlog), the database pool's round trip
 * and connections, the password-hashing gate (api/domain/hashing_gate.ts) and the process's memory.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BlobStore } from '../blobs/types.ts';
import { count_outbox_backlog } from '../db/email_outbox.ts';
import { count_connections_by_state, ping_database } from '../db/pool_stats.ts';
import type { AppDeps } from '../deps.ts';
import { hashingGate } from '../domain/passwords.ts';
import type { AppEnv } from './context.ts';

/** Every metric's name starts with this, so the portal's series are found together. */
const PREFIX = 'legal_mail_';

/** Routes where a refusal is a failed sign-in (a password, a PIN, a second factor's code). */
const SIGN_IN_ROUTES = new Set(['/api/auth/login', '/api/auth/unlock', '/api/auth/mfa/verify']);

/** Refusals that are a throttle or a busy server rather than a wrong secret. */
function isThrottle(status: number, code: string): boolean {
  return status === 429 || (status === 503 && code.endsWith('_busy'));
}

/**
 * Seconds: the portal's answers range from a millisecond (the liveness check) to a minute (a large upload), and a
 * sign-in's PBKDF2 sits near 0.2 s, so the buckets are finer there.
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface AppMetrics {
  registry: Registry;
  /** The middleware that times and counts each request (mounted first, beside the request log). */
  observe: MiddlewareHandler<AppEnv>;
  /** `store` with each failed call counted by operation (the calls pass through unchanged). */
  countBlobErrors(store: BlobStore): BlobStore;
}

/** A new registry and its metrics, for one app. */
export function createMetrics(deps: Pick<AppDeps, 'sql' | 'sessionSql' | 'log'>): AppMetrics {
  const registry = new Registry();
  const registers = [registry];

  const requestDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Requests by route pattern, method and status, with the time to the answer's headers.",
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const inFlight = new Gauge({
    name: `${PREFIX}http_requests_in_flight`,
    help: 'Requests being answered now.',
    registers,
  });
  const signInFailures = new Counter({
    name: `${PREFIX}sign_in_failures_total`,
    help: "Refused sign-ins, lock-screen unlocks and second-factor codes, by the refusal's code.",
    labelNames: ['route', 'code'] as const,
    registers,
  });
  const throttled = new Counter({
    name: `${PREFIX}throttled_total`,
    help: "Requests refused by a throttle or a busy limit (429, or 503 busy), by the refusal's code.",
    labelNames: ['code'] as const,
    registers,
  });
  const blobErrors = new Counter({
    name: `${PREFIX}blob_store_errors_total`,
    help: 'Blob store calls made while answering requests that failed, by operation.',
    labelNames: ['operation'] as const,
    registers,
  });

  // The database's figures are read at each scrape; with the database unreachable they are left out (and
  // legal_mail_db_up says 0) rather than failing the whole answer.
  const fromDatabase = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch {
      return undefined;
    }
  };
  new Gauge({
    name: `${PREFIX}email_outbox_messages`,
    help: 'E-mails in the outbox not sent: pending (waiting or retrying), retrying, failed (given up).',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      this.reset();
      const backlog = await fromDatabase(() => count_outbox_backlog(deps.sql));
      if (!backlog) return;
      this.set({ status: 'pending' }, backlog.pending);
      this.set({ status: 'retrying' }, backlog.retrying);
      this.set({ status: 'failed' }, backlog.failed);
    },
  });
  new Gauge({
    name: `${PREFIX}email_outbox_oldest_pending_seconds`,
    help: 'Age of the oldest e-mail still waiting to be sent (0 when none waits).',
    registers,
    async collect() {
      this.reset();
      const backlog = await fromDatabase(() => count_outbox_backlog(deps.sql));
      if (backlog) this.set(backlog.oldestPendingSeconds);
    },
  });

  const pools = { main: deps.sql, session: deps.sessionSql };
  new Gauge({
    name: `${PREFIX}db_pool_max_connections`,
    help: "Connections each of this process's database pools may open.",
    labelNames: ['pool'] as const,
    registers,
    collect() {
      for (const [pool, sql] of Object.entries(pools)) {
        const max = (sql as { options?: { max?: number } } | undefined)?.options?.max;
        if (max !== undefined) this.set({ pool }, max);
      }
    },
  });
  new Gauge({
    name: `${PREFIX}db_up`,
    help: '1 when a round trip to the database succeeded at the scrape, else 0.',
    registers,
    async collect() {
      this.set((await fromDatabase(() => ping_database(deps.sql))) === undefined ? 0 : 1);
    },
  });
  new Gauge({
    name: `${PREFIX}db_ping_seconds`,
    help: 'One round trip through the main pool, waiting for a free connection included, at the scrape.',
    registers,
    async collect() {
      this.reset();
      const seconds = await fromDatabase(() => ping_database(deps.sql));
      if (seconds !== undefined) this.set(seconds);
    },
  });
  new Gauge({
    name: `${PREFIX}db_connections`,
    help: "The database's client connections by state (every instance's and tool's), from pg_stat_activity.",
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const { state, n } of await fromDatabase(() => count_connections_by_state(deps.sql)) ?? []) {
        this.set({ state }, n);
      }
    },
  });

  new Gauge({
    name: `${PREFIX}password_hashing_running`,
    help: 'Password and PIN derivations running now in this process.',
    registers,
    collect() {
      this.set(hashingGate.running);
    },
  });
  const lines = ['ordinary', 'priority'] as const;
  new Gauge({
    name: `${PREFIX}password_hashing_queued`,
    help: 'Password and PIN derivations waiting for a slot now, by line (line="ordinary" or "priority").',
    labelNames: ['line'] as const,
    registers,
    collect() {
      for (const line of lines) this.set({ line }, hashingGate.lineCounts(line).queued);
    },
  });
  new Gauge({
    name: `${PREFIX}password_hashing_reserved`,
    help:
      'Places in the hashing lines taken by sign-ins, unlocks and password changes not yet hashing, by line.',
    labelNames: ['line'] as const,
    registers,
    collect() {
      for (const line of lines) this.set({ line }, hashingGate.lineCounts(line).reserved);
    },
  });
  new Gauge({
    name: `${PREFIX}password_hashing_limit`,
    help: 'The hashing gate\'s slots and places in each line (kind="slots", "queue" or "priority_queue").',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.set({ kind: 'slots' }, hashingGate.slots);
      this.set({ kind: 'queue' }, hashingGate.queueLimit);
      this.set({ kind: 'priority_queue' }, hashingGate.priorityLimit);
    },
  });
  new Counter({
    name: `${PREFIX}password_hashing_total`,
    help: 'Password and PIN derivations started in this process since it began.',
    registers,
    collect() {
      this.reset();
      this.inc(hashingGate.admitted);
    },
  });
  new Counter({
    name: `${PREFIX}password_hashing_refused_total`,
    help: 'Derivations refused since the process began, the gate and its queue being full (answered 503).',
    registers,
    collect() {
      this.reset();
      this.inc(hashingGate.refused);
    },
  });
  new Gauge({
    name: `${PREFIX}process_resident_memory_bytes`,
    help: 'Resident memory of this process.',
    registers,
    collect() {
      this.set(Deno.memoryUsage().rss);
    },
  });

  const observe: MiddlewareHandler<AppEnv> = async (c, next) => {
    const started = performance.now();
    inFlight.inc();
    try {
      await next();
    } finally {
      inFlight.dec();
      const route = routePath(c);
      const status = c.res.status;
      requestDuration.observe(
        { route, method: c.req.method, status: String(status) },
        (performance.now() - started) / 1000,
      );
      const code = c.get('failureCode');
      if (code && isThrottle(status, code)) throttled.inc({ code });
      else if (code && status >= 400 && status < 500 && SIGN_IN_ROUTES.has(route)) {
        signInFailures.inc({ route, code });
      }
    }
  };

  const countBlobErrors = (store: BlobStore): BlobStore =>
    new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          if (result instanceof Promise) {
            return result.catch((error: unknown) => {
              blobErrors.inc({ operation: property });
              throw error;
            });
          }
          return result;
        };
      },
    });

  return { registry, observe, countBlobErrors };
}
