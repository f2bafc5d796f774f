/** The append-only audit log: every security-relevant event, who, from where, about what. */
import type { Tx } from './client.ts';
import { storableText } from './storable_text.ts';

export interface AuditEvent {
  userId: string | null;
  eventType: string;
  resourceType: string;
  resourceId?: string | null;
  ipAddress: string | null;
  eventData?: Record<string, unknown>;
}

/** Appends one event; call it inside the transaction of the change it records. */
export async function insert_audit_event(sql: Tx, event: AuditEvent): Promise<void> {
  await sql`
    insert into audit_logs (user_id, event_type, resource_type, resource_id, ip_address, event_data)
    values (${event.userId}, ${event.eventType}, ${event.resourceType}, ${event.resourceId ?? null},
            ${event.ipAddress}, ${sql.json(storable(event.eventData ?? {}) as never)})`;
}

/** The longest request path an event keeps. */
const AUDITED_PATH_CHARACTERS = 200;

/** A request's path as an event keeps it: at most AUDITED_PATH_CHARACTERS, never cut inside a character. */
export function auditedPath(path: string): string {
  return Array.from(path).slice(0, AUDITED_PATH_CHARACTERS).join('');
}

/**
 * The event's data as PostgreSQL's JSON column takes it: every string made storable (storable_text.ts). A path
 * with %00, or cut inside an emoji, must not make the audit write (and the refusal it records) a 500: an event
 * must be written whatever a request held.
 */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key), storable(item)]));
  }
  return value;
}

/** An audit event as a user's activity list shows it. */
export interface ActivityEvent {
  id: string;
  created_at: Date;
  event_type: string;
  resource_type: string;
  ip_address: string | null;
  event_data: Record<string, unknown>;
}

/** The user's latest `limit` events, newest first (served by the (user_id, created_at) index). */
export function list_user_activity(sql: Tx, userId: string, limit: number): Promise<ActivityEvent[]> {
  return sql<ActivityEvent[]>`
    select id::text as id, created_at, event_type, resource_type, ip_address, event_data
    from audit_logs where user_id = ${userId}
    order by created_at desc, id desc
    limit ${limit}`;
}

/** A sign-in as its `user_login` event recorded it. */
export interface SignInEvent {
  created_at: Date;
  ip_address: string | null;
  event_data: Record<string, unknown>;
}

/** The user's own latest `limit` sign-ins, newest first (the (user_id, created_at) index); nobody else's. */
export function list_sign_ins(sql: Tx, userId: string, limit: number): Promise<SignInEvent[]> {
  return sql<SignInEvent[]>`
    select created_at, ip_address, event_data
    from audit_logs where user_id = ${userId} and event_type = 'user_login'
    order by created_at desc, id desc
    limit ${limit}`;
}
