/** Who does an action, and from where: every staff action is audited with both. */
import { isDepartmentAdmin } from '../../contract/rules/admin_scope.ts';

export interface Actor {
  userId: string;
  entityId: string;
  ipAddress: string | null;
  /**
   * A department-wide administrator (contract/rules/admin_scope.ts), who may manage any entity; absent or false,
   * the actor reaches their own entity only.
   */
  departmentAdmin?: boolean;
}

/** The actor of a signed-in session seen from `ipAddress`. */
export function actorFrom(
  session: { id: string; entity_id: string; role?: string; entity_slug?: string },
  ipAddress: string | null,
): Actor {
  const departmentAdmin = session.role !== undefined && session.entity_slug !== undefined &&
    isDepartmentAdmin({ role: session.role, entity: session.entity_slug });
  return { userId: session.id, entityId: session.entity_id, ipAddress, departmentAdmin };
}
