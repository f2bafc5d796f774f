/** Audit events as the admin screens show them. */

/** One row of the audit log (GET /api/admin/audit-logs). */
export interface AuditLog {
  /** A bigint, as a string so it survives JSON; also the page cursor. */
  id: string;
  /** ISO 8601. */
  created_at: string;
  user_id: string | null;
  user_name: string | null;
  event_type: string;
  resource_type: string;
  resource_id: string | null;
  ip_address: string | null;
  event_data: Record<string, unknown>;
}

/** GET /api/admin/audit-logs answer `data`. */
export interface AuditLogPage {
  logs: AuditLog[];
  /** The id to pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  eventTypes: string[];
}

/** One of a user's recent events (GET /api/admin/users/{id}/activity `data.events`). */
export interface ActivityEvent {
  id: string;
  /** ISO 8601. */
  created_at: string;
  event_type: string;
  resource_type: string;
  ip_address: string | null;
  event_data: Record<string, unknown>;
}

/** GET /api/admin/audit-logs answer. */
export interface AuditLogPageAnswer {
  success: true;
  data: AuditLogPage;
}

/** GET /api/admin/users/{id}/activity answer. */
export interface ActivityAnswer {
  success: true;
  data: { events: ActivityEvent[] };
}

/** The audit checkpoints' signing key (GET /api/audit/public-key `data`): anyone may check a checkpoint with it. */
export interface AuditPublicKey {
  algorithm: 'Ed25519';
  /** The 32-byte public key, base64. */
  publicKey: string;
  /** SHA-256 of the key's bytes, its first 8 bytes as hex: to tell keys apart at a glance. */
  fingerprint: string;
}

/** GET /api/audit/public-key answer. */
export interface AuditPublicKeyAnswer {
  success: true;
  data: AuditPublicKey;
}

/** The latest `npm run audit:verify` and the latest signed checkpoint (GET /api/admin/audit-logs/integrity). */
export interface AuditIntegrity {
  /** Null when the log was never verified. */
  lastVerification: {
    /** ISO 8601. */
    verifiedAt: string;
    ok: boolean;
    rowsChecked: number;
    checkpointsChecked: number;
    /** What it found first, or a summary when the log held. */
    message: string;
  } | null;
  /** Null before the first checkpoint. */
  lastCheckpoint: {
    /** ISO 8601. */
    signedAt: string;
    /** Rows the checkpoint covers. */
    size: number;
  } | null;
}

/** GET /api/admin/audit-logs/integrity answer. */
export interface AuditIntegrityAnswer {
  success: true;
  data: AuditIntegrity;
}
