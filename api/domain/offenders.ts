/**
 * The offender roster: adding one offender, resetting a PIN, and importing a roster file (the API and the
 * `roster:import` command run the same importRoster).
 */
import type { AppDeps } from '../deps.ts';
import { insert_audit_event } from '../db/audit.ts';
import { reset_login_failures } from '../db/login_throttle.ts';
import { get_setting } from '../db/settings.ts';
import { revoke_user_sessions } from '../db/sessions.ts';
import {
  type AdminUserRow,
  find_admin_user,
  find_existing_doc_numbers,
  find_user_by_id,
  insert_user,
  lock_user,
  set_offender_custody,
  set_reset_pin,
  update_user_language,
  upsert_offender,
  type UserRow,
} from '../db/users.ts';
import type { Tx } from '../db/client.ts';
import { entityHasFacilityNetwork } from './ip_whitelist.ts';
import { hashPin } from './passwords.ts';
import { ONE_TIME_PIN_HOURS } from './pin_reset.ts';
import { fail, type Failure, type Outcome } from './outcome.ts';
import {
  type OffenderFields,
  offenderProblem,
  parseRoster,
  pinProblem,
  ROSTER_MESSAGES,
  type RosterRow,
} from '../../contract/rules/roster.ts';
import type { RosterReport, RosterReportRow } from '../../contract/shapes/roster_report.ts';
import type { Actor } from './actor.ts';

/**
 * A report row's reason when the database refused a row the rules accepted. It is report content both the API
 * and the command line print, like the rules' own reasons (ROSTER_MESSAGES), not a failure of the call.
 */
export const ROW_NOT_SAVED = 'The row could not be saved';

/**
 * PINs hashed at once during an import. PBKDF2 at 600,000 iterations costs a core for a fraction of a
 * second; a few at a time keeps an import moving without starving sign-ins on a small server.
 */
export const IMPORT_HASH_CONCURRENCY = 3;

/** A DOC number as echoed in a report: at most this many characters (a 5 MB cell is not echoed back). */
const REPORT_DOC_MAX = 64;

function trimmed(o: OffenderFields): OffenderFields {
  return {
    docNumber: o.docNumber.trim(),
    firstName: o.firstName.trim(),
    lastName: o.lastName.trim(),
    pin: o.pin.trim(),
  };
}

/** What the roster's use cases need: the database and the pepper PINs are hashed under. */
export type RosterDeps = Pick<AppDeps, 'sql' | 'pinPepper'>;

/** Adds one offender to the actor's entity with an initial PIN. */
export async function addOffender(
  deps: RosterDeps,
  input: OffenderFields,
  actor: Actor,
): Promise<Outcome<{ user: AdminUserRow }>> {
  const { sql } = deps;
  const o = trimmed(input);
  const pinMinLength = await get_setting(sql, 'pin_min_length');
  const problem = offenderProblem(o, { pinRequired: true, pinMinLength });
  if (problem) return fail('invalid_input', problem);
  const passwordHash = await hashPin(o.pin, { pepper: deps.pinPepper, patient: true });
  return await sql.begin(async (tx): Promise<Outcome<{ user: AdminUserRow }>> => {
    const created = await insert_user(tx, {
      entityId: actor.entityId,
      role: 'offender',
      docNumber: o.docNumber,
      firstName: o.firstName,
      lastName: o.lastName,
      passwordHash,
    });
    if (!created.ok) return fail('offender_duplicate');
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'user_created',
      resourceType: 'user',
      resourceId: created.id,
      ipAddress: actor.ipAddress,
      eventData: { role: 'offender', docNumber: o.docNumber },
    });
    const user = await find_admin_user(tx, created.id);
    return { ok: true, user: user! };
  });
}

/**
 * Why `user`'s PIN cannot be reset by `actor`, if it cannot: another entity's offender is as missing as an
 * unknown one (an admin manages their own entity only), and an entity with no active IP range has no facility
 * network, where alone a one-time PIN works (api/domain/pin_reset.ts): the reset would hand out a PIN that
 * opens nothing, so it is refused and the admin is told to add the facility's range first.
 */
async function pinResetRefusal(
  sql: Tx,
  user: UserRow | undefined,
  actor: Actor,
): Promise<Failure | undefined> {
  if (!user || user.role !== 'offender' || !user.doc_number || user.entity_id !== actor.entityId) {
    return fail('offender_not_found');
  }
  if (!(await entityHasFacilityNetwork(sql, user.entity_id))) return fail('pin_reset_needs_facility_range');
  return undefined;
}

/**
 * Sets a one-time PIN (api/domain/pin_reset.ts): the PIN before it stops working, the offender's sessions end and
 * any sign-in lock on the DOC number lifts. The one-time PIN opens one session that may only choose a new PIN.
 */
export async function resetOffenderPin(
  deps: RosterDeps,
  change: { userId: string; pin: string },
  actor: Actor,
): Promise<Outcome> {
  const { sql } = deps;
  const pin = change.pin.trim();
  const problem = pinProblem(pin, await get_setting(sql, 'pin_min_length'));
  if (problem) return fail('invalid_input', problem);
  // Asked before the hashing, so a refusal costs nothing, and again under the row's lock below.
  const early = await pinResetRefusal(sql, await find_user_by_id(sql, change.userId), actor);
  if (early) return early;
  const [oneTimeHash, unusableHash] = await Promise.all([
    hashPin(pin, { pepper: deps.pinPepper, patient: true }),
    // Nobody knows this secret: until the one-time PIN is used, it is the only way in.
    hashPin(crypto.randomUUID(), { pepper: deps.pinPepper, patient: true }),
  ]);
  return await sql.begin(async (tx): Promise<Outcome> => {
    const user = await lock_user(tx, change.userId);
    const refusal = await pinResetRefusal(tx, user, actor);
    if (refusal || !user?.doc_number) return refusal ?? fail('offender_not_found');
    await set_reset_pin(tx, {
      userId: user.id,
      oneTimeHash,
      unusableHash,
      hours: ONE_TIME_PIN_HOURS,
      adminId: actor.userId,
    });
    await revoke_user_sessions(tx, user.id);
    // The lock is kept per lower-cased username (api/domain/auth.ts).
    await reset_login_failures(tx, user.entity_id, user.doc_number.toLowerCase());
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'user_updated',
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: actor.ipAddress,
      eventData: { change: 'pin_reset', docNumber: user.doc_number, oneTimeHours: ONE_TIME_PIN_HOURS },
    });
    return { ok: true };
  });
}

/** Thrown inside a row's savepoint to undo it: the row turned out a PIN reset the entity cannot take. */
class PinResetRefused extends Error {}

/** The report's shapes are the API's answer (contract/shapes/roster_report.ts); the command line prints them. */
export type ImportReportRow = RosterReportRow;
export type ImportReport = RosterReport;

/**
 * A refused file: `invalid_input` with the rule's message as `detail`. `message` repeats it for the command
 * line (api/cli/roster_import.ts), which prints it.
 */
export type ImportRefusal = Failure & { message: string };

/** Who runs an import: an admin through the API, or the command line (no user). */
export interface ImportActor {
  userId: string | null;
  entityId: string;
  ipAddress: string | null;
  source: 'api' | 'cli';
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of the results. */
async function mapPooled<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function reportDoc(docNumber: string): string {
  return docNumber.length > REPORT_DOC_MAX ? `${docNumber.slice(0, REPORT_DOC_MAX)}…` : docNumber;
}

/** The one line summary both the API and the command line print. */
export function importSummary(report: ImportReport): string {
  return `Roster imported: ${report.added} added, ${report.updated} updated, ${report.rejected} rejected.`;
}

/**
 * Imports a roster file into the actor's entity. A file that is not a roster CSV is refused whole; otherwise
 * every row is added, updated (names; the PIN only when given, which is then a PIN reset: a one-time PIN) or
 * rejected with its reason, and a bad row never stops the good ones (each row runs in its own savepoint).
 * PINs are hashed before the transaction opens, so the writes hold it briefly. The `roster_imported`
 * audit event commits together with the rows.
 */
export async function importRoster(
  deps: RosterDeps,
  bytes: Uint8Array,
  actor: ImportActor,
): Promise<{ ok: true; report: ImportReport } | ImportRefusal> {
  const { sql } = deps;
  const parsed = parseRoster(bytes, { pinMinLength: await get_setting(sql, 'pin_min_length') });
  if (!parsed.ok) return { ...fail('invalid_input', parsed.message), message: parsed.message };
  const rows: ImportReportRow[] = parsed.rejected.map((r) => ({
    line: r.line,
    docNumber: reportDoc(r.docNumber),
    outcome: 'rejected',
    reason: r.reason,
    code: r.code,
    ...(r.params ? { params: r.params } : {}),
  }));
  const existing = await find_existing_doc_numbers(sql, actor.entityId, parsed.rows.map((r) => r.docNumber));
  // A PIN for an existing offender is a PIN reset, refused while the entity has no facility network (as
  // resetOffenderPin refuses it): the row is rejected whole, so nothing of it changes.
  const facilityNetwork = await entityHasFacilityNetwork(sql, actor.entityId);
  const refused = (row: RosterRow, code: 'pinRequired' | 'pinResetNeedsRange'): ImportReportRow => ({
    line: row.line,
    docNumber: row.docNumber,
    outcome: 'rejected',
    reason: ROSTER_MESSAGES[code],
    code,
  });
  const writable: RosterRow[] = [];
  for (const row of parsed.rows) {
    if (row.pin === '' && !existing.has(row.docNumber)) rows.push(refused(row, 'pinRequired'));
    else if (row.pin !== '' && existing.has(row.docNumber) && !facilityNetwork) {
      rows.push(refused(row, 'pinResetNeedsRange'));
    } else writable.push(row);
  }
  const hashes = await mapPooled(
    writable,
    IMPORT_HASH_CONCURRENCY,
    (r) => r.pin ? hashPin(r.pin, { pepper: deps.pinPepper, patient: true }) : Promise.resolve(null),
  );
  // A PIN the file gives an offender who already has one is a PIN reset (resetOffenderPin): nobody knows this
  // secret, which replaces their PIN while the file's PIN becomes a one-time PIN. One for the whole file.
  const unusableHash = writable.some((r) => r.pin && existing.has(r.docNumber))
    ? await hashPin(crypto.randomUUID(), { pepper: deps.pinPepper, patient: true })
    : undefined;

  await sql.begin(async (tx) => {
    for (const [i, row] of writable.entries()) {
      const pinHash = hashes[i];
      try {
        const saved = await tx.savepoint(async (sp) => {
          const result = await upsert_offender(sp, {
            entityId: actor.entityId,
            docNumber: row.docNumber,
            firstName: row.firstName,
            lastName: row.lastName,
            pinHash,
          });
          if (result?.outcome === 'updated' && pinHash) {
            // Added by someone else since the look-up above: a PIN reset after all; undone with the savepoint.
            if (!facilityNetwork) throw new PinResetRefused();
            // Whoever wrote the file knows the PIN: it opens one session, on the facility's network, that may
            // only choose a new PIN, and the offender is told (api/domain/pin_reset.ts), as an admin's reset.
            await set_reset_pin(sp, {
              userId: result.id,
              oneTimeHash: pinHash,
              unusableHash: unusableHash ??
                (await hashPin(crypto.randomUUID(), { pepper: deps.pinPepper, patient: true })),
              hours: ONE_TIME_PIN_HOURS,
              adminId: actor.userId,
            });
            await revoke_user_sessions(sp, result.id);
            await reset_login_failures(sp, actor.entityId, row.docNumber.toLowerCase());
            await insert_audit_event(sp, {
              userId: actor.userId,
              eventType: 'user_updated',
              resourceType: 'user',
              resourceId: result.id,
              ipAddress: actor.ipAddress,
              eventData: {
                change: 'pin_reset',
                docNumber: row.docNumber,
                oneTimeHours: ONE_TIME_PIN_HOURS,
                source: `roster_${actor.source}`,
              },
            });
          }
          if (result && row.language) await update_user_language(sp, result.id, row.language);
          const custody = result && row.status
            ? await set_offender_custody(sp, result.id, row.status)
            : undefined;
          if (result && custody) {
            // Released or transferred: signed out at once, as an admin's change would; audited like one.
            if (custody.to !== 'active') await revoke_user_sessions(sp, result.id);
            await insert_audit_event(sp, {
              userId: actor.userId,
              eventType: 'user_status_updated',
              resourceType: 'user',
              resourceId: result.id,
              ipAddress: actor.ipAddress,
              eventData: {
                from: custody.from,
                to: custody.to,
                role: 'offender',
                docNumber: row.docNumber,
                source: `roster_${actor.source}`,
              },
            });
          }
          return result;
        });
        rows.push(
          saved
            ? { line: row.line, docNumber: row.docNumber, outcome: saved.outcome }
            : refused(row, 'pinRequired'),
        );
      } catch (error) {
        if (error instanceof PinResetRefused) {
          rows.push(refused(row, 'pinResetNeedsRange'));
          continue;
        }
        console.error(`[roster] line ${row.line} not saved:`, error instanceof Error ? error.message : error);
        rows.push({
          line: row.line,
          docNumber: row.docNumber,
          outcome: 'rejected',
          reason: ROW_NOT_SAVED,
          code: 'notSaved',
        });
      }
    }
    rows.sort((a, b) => a.line - b.line);
    const counts = countOutcomes(rows);
    await insert_audit_event(tx, {
      userId: actor.userId,
      eventType: 'roster_imported',
      resourceType: 'roster',
      resourceId: actor.entityId,
      ipAddress: actor.ipAddress,
      eventData: { ...counts, rows: rows.length, source: actor.source },
    });
  });
  return { ok: true, report: { ...countOutcomes(rows), rows } };
}

function countOutcomes(rows: readonly ImportReportRow[]) {
  const counts = { added: 0, updated: 0, rejected: 0 };
  for (const r of rows) counts[r.outcome]++;
  return counts;
}
