/** Who does an action, and from where: every staff action is audited with both. */

export interface Actor {
  userId: string;
  entityId: string;
  ipAddress: string | null;
}

/** The actor of a signed-in session seen from `ipAddress`. */
export function actorFrom(session: { id: string; entity_id: string }, ipAddress: string | null): Actor {
  return { userId: session.id, entityId: session.entity_id, ipAddress };
}
