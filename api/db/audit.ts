/** The append-only audit log: every security-relevant event, who, from where, about what. */
import type { Tx } from './client.ts';

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
            ${event.ipAddress}, ${sql.json((event.eventData ?? {}) as never)})`;
}
