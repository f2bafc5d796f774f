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
