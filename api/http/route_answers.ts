/**
 * Which answer each route sends when it succeeds: the name of its `…Answer` type in contract/shapes/, whose JSON
 * Schema (contract/shapes.schema.json, generated from that type) the API reference gives for the route's
 * success. The handler holds itself to the same type with `satisfies`, so the reference, the handler and the
 * PWA read one declaration.
 *
 * One table rather than a marker on each handler: a handler's context (its validated input, the session) is
 * inferred by Hono from where the handler is written in the route's chain, and a wrapper around it would lose
 * that. tests/api/openapi_shapes.test.ts calls every route listed here and checks its real answer against the
 * schema, and fails on a key that names no route of the app. A route missing here is documented with the generic
 * success.
 */
import shapes from '../../contract/shapes.schema.json' with { type: 'json' };

/** A type of contract/shapes/ with a generated schema. */
export type ShapeName = keyof typeof shapes.definitions;

export interface RouteAnswer {
  /** The success status; 200 unless said. */
  status?: number;
  /** One shape, or several when the route answers one of them (a sign-in with or without a second factor). */
  shapes: readonly ShapeName[];
}

/** By `METHOD /api/path/{param}`, as the reference writes the route. */
export const ROUTE_ANSWERS: Record<string, RouteAnswer> = {
  'GET /api/config': { shapes: ['PublicConfigAnswer'] },
  'GET /api/health': { shapes: ['HealthAnswer'] },
  'GET /api/health/ready': { shapes: ['ReadinessAnswer'] },
  'GET /api/audit/public-key': { shapes: ['AuditPublicKeyAnswer'] },

  'POST /api/auth/login': { shapes: ['LoginAnswer', 'MfaStepAnswer'] },
  'POST /api/auth/logout': { shapes: ['MessageAnswer'] },
  'POST /api/auth/forgot-password': { shapes: ['MessageAnswer'] },
  'GET /api/auth/me': { shapes: ['MeAnswer'] },
  'POST /api/auth/password': { shapes: ['PasswordChangeAnswer'] },
  'PATCH /api/auth/preferences': { shapes: ['OwnPreferencesAnswer'] },
  'GET /api/auth/offline-key': { shapes: ['OfflineKeyAnswer'] },
  'POST /api/auth/lock': { shapes: ['MessageAnswer'] },
  'POST /api/auth/unlock': { shapes: ['OfflineKeyAnswer'] },
  'GET /api/auth/sign-ins': { shapes: ['SignInsAnswer'] },
  'POST /api/auth/pin-reset-notice/dismiss': { shapes: ['MessageAnswer'] },
  'POST /api/auth/register': { status: 201, shapes: ['MessageAnswer'] },
  'GET /api/auth/mfa/factors': { shapes: ['MfaFactorListAnswer'] },
  'POST /api/auth/logout-all': { shapes: ['MessageAnswer'] },

  'GET /api/documents/offender/{docNumber}': { shapes: ['OffenderDocumentListAnswer'] },
  'GET /api/documents/mine': { shapes: ['MineDocumentListAnswer'] },
  'GET /api/documents/attorney': { shapes: ['AttorneyDocumentsAnswer'] },
  'GET /api/representative/documents': { shapes: ['RepresentativeDocumentsAnswer'] },
  'GET /api/documents/{id}/info': { shapes: ['DocumentInfoAnswer'] },
  'POST /api/receipts/verify': { shapes: ['ReceiptCheckAnswer'] },
  'GET /api/recipients/{docNumber}': { shapes: ['RecipientAnswer'] },
  'GET /api/preferences': { shapes: ['PreferencesAnswer'] },
  'PUT /api/preferences': { shapes: ['PreferencesSavedAnswer'] },
  'GET /api/attorney/representatives': { shapes: ['LinkedRepresentativeListAnswer'] },
  'POST /api/attorney/representatives/{id}/remove': { shapes: ['MessageAnswer'] },
  'POST /api/attorney/representatives/invitations': { status: 201, shapes: ['MessageAnswer'] },
  'POST /api/documents/{id}/withdraw': { shapes: ['DocumentWithdrawnAnswer'] },

  'GET /api/approver/registrations': { shapes: ['PendingRegistrationListAnswer'] },
  'POST /api/approver/registrations/{id}/approve': { shapes: ['ApprovalAnswer'] },
  'POST /api/approver/registrations/{id}/reject': { shapes: ['MessageAnswer'] },

  'GET /api/admin/users': { shapes: ['AdminUserListAnswer', 'AdminUserPageAnswer'] },
  'GET /api/admin/users/{id}/activity': { shapes: ['ActivityAnswer'] },
  'GET /api/admin/audit-logs/integrity': { shapes: ['AuditIntegrityAnswer'] },
  'GET /api/admin/audit-logs': { shapes: ['AuditLogPageAnswer'] },
  'GET /api/admin/email-outbox': { shapes: ['OutboxEmailListAnswer'] },
  'GET /api/admin/entities': { shapes: ['EntityListAnswer'] },
  'GET /api/admin/settings': { shapes: ['SettingListAnswer'] },
  'GET /api/admin/health': { shapes: ['AdminHealthAnswer'] },
  'PUT /api/admin/settings/{key}': { shapes: ['MessageAnswer'] },
  'GET /api/admin/ip-whitelist': { shapes: ['IpWhitelistAnswer'] },
  'POST /api/admin/ip-whitelist': { status: 201, shapes: ['IpRangeSavedAnswer'] },
  'PUT /api/admin/ip-whitelist/{id}': { shapes: ['IpRangeSavedAnswer'] },
  'DELETE /api/admin/ip-whitelist/{id}': { shapes: ['MessageAnswer'] },
  'POST /api/admin/entities': { status: 201, shapes: ['EntitySavedAnswer'] },
  'PUT /api/admin/entities/{id}': { shapes: ['EntitySavedAnswer'] },
  'PUT /api/admin/users/{id}/status': { shapes: ['MessageAnswer'] },
  'POST /api/admin/users/{id}/unlock': { shapes: ['MessageAnswer'] },
  'POST /api/admin/users/{id}/password-reset': { shapes: ['MessageAnswer'] },
  'POST /api/admin/users/staff': { status: 201, shapes: ['StaffAddedAnswer'] },
  'POST /api/admin/offenders': { status: 201, shapes: ['OffenderAddedAnswer'] },
  'PUT /api/admin/offenders/{id}/pin': { shapes: ['MessageAnswer'] },
};
