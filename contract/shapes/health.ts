/**
 * Readiness: what anyone may know (ready or not), and what the department administrator sees (each check's
 * result and when the costly probes last ran). The checks' texts name hosts, buckets and folders, so they are
 * never in the anonymous answer.
 */

/** GET /api/health/ready when ready (503 `{ success: false, message: 'Not ready.' }` when not). */
export interface ReadinessAnswer {
  success: true;
  status: 'ready';
}

/** Each check: `ok`, or what failed in words for the operator. */
export interface HealthChecks {
  database: string;
  migrations: string;
  /** The write probe: at most once a minute. */
  blobStore: string;
  /** The offload canary through the front (BLOB_OFFLOAD=nginx with OFFLOAD_CHECK_URL only): at most once a minute. */
  offload?: string;
}

export interface AdminHealth {
  ready: boolean;
  checks: HealthChecks;
  /** When the cached probes last ran (ISO times). */
  probedAt: { blobStore: string; offload?: string };
}

/** GET /api/admin/health. */
export interface AdminHealthAnswer {
  success: true;
  data: AdminHealth;
}
