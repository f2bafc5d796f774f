/**
 * Offline reading on a shared facility tablet, the server's half: the per-session data key that
 * encrypts the offender's cached mail (handed to a live session, or after the lock screen's PIN), the prefetch
 * that is not a reading, and the views and prints made offline, recorded once each when the network returns.
 *
 * The key lives with its session row and is destroyed by every statement that ends the session
 * (api/db/sessions.ts). It is created on the first request for it, not at sign-in: staff sessions (whose
 * portals cache nothing) never get one, and the race-free sign-in transaction stays as it is.
 *
 * The lock screen is kept here, not only on the tablet: POST /api/auth/lock marks the session locked, and the
 * guard then refuses it everything but unlock and logout (so a token read from a locked tablet opens no mail and
 * no key); only the right PIN lifts it. The PIN goes through the sign-in's own throttle (sign_in_throttle.ts):
 * counted before it is checked, the same per-account waits and lock and per-address budget, the same in-flight limit. Wrong
 * PINs never end the session: whoever stands at a lock screen can type them, and the owner's session (and the
 * readings it has still to send) must not end for someone else's guesses. Once the account lock is in force the
 * lock screen is refused for now, and the session stays locked until the right PIN or its own end.
 */
import { pinResetAudit } from './pin_reset.ts';
import { insert_audit_event } from '../db/audit.ts';
import type { Tx } from '../db/client.ts';
import { claim_document_read_audit, type DocumentToRead, mark_document_prefetched } from '../db/documents.ts';
import {
  count_offline_events_received,
  ensure_session_data_key,
  find_first_served,
  find_offline_read_event,
  find_session_start,
  insert_offline_read_event,
  mark_document_read_at,
  mark_offline_key_issued,
  offline_reading_recorded_near,
} from '../db/offline.ts';
import { type ActiveSession, lock_session, unlock_session } from '../db/sessions.ts';
import { get_setting } from '../db/settings.ts';
import { find_password_hashes } from '../db/users.ts';
import type { AppDeps } from '../deps.ts';
import type { OfflineKey, OfflineReadEvent } from '../../contract/shapes/offline.ts';
import { queueOpenedNotice } from './delivery.ts';
import { findReadableDocument } from './documents.ts';
import { fail, type Outcome, type Reason } from './outcome.ts';
import type { HashingPlace } from './hashing_gate.ts';
import { dummySecretHash, hashingGate, verifySecret } from './passwords.ts';
import {
  accountAttemptKey,
  addressBudgetFailure,
  admitAttempt,
  confirmSuccess,
  recordFailure,
  signInsInFlight,
} from './sign_in_throttle.ts';

/** 32 bytes: a raw AES-256-GCM key (contract/shapes/offline.ts). */
const DATA_KEY_BYTES = 32;

/** Tablet clocks drift: a reading stamped up to a minute before the session began is still taken as in it. */
export const CLOCK_SKEW_BEFORE_MS = 60_000;
/** ...and up to two minutes ahead of the server's clock. */
export const CLOCK_SKEW_AFTER_MS = 120_000;

export type OfflineKeyResult = Outcome<{ key: OfflineKey }>;

type Deps = Pick<AppDeps, 'sql'>;

/** The limits the tablet enforces by its own clock, from the settings as they are now. */
async function tabletLimits(deps: Deps) {
  const [lock, idleMinutes, prefetchCount, storageBudgetMb] = await Promise.all([
    get_setting(deps.sql, 'tablet_lock_minutes'),
    get_setting(deps.sql, 'session_idle_minutes'),
    get_setting(deps.sql, 'offline_prefetch_count'),
    get_setting(deps.sql, 'offline_storage_budget_mb'),
  ]);
  // Clamped, not refused when saved: lowering session_idle_minutes later must never leave a lock that would
  // come after the session has already ended.
  return { lockMinutes: Math.min(lock, idleMinutes), idleMinutes, prefetchCount, storageBudgetMb };
}

/**
 * Inside `tx`: the live session's data key (created on first use) and, the first time in the session, its
 * 'offline_key_issued' audit event. Undefined when the session has ended meanwhile.
 */
async function issueKey(
  tx: Tx,
  session: ActiveSession,
  ipAddress: string,
): Promise<{ key: Uint8Array; expiresAt: Date } | undefined> {
  const candidate = crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES));
  const row = await ensure_session_data_key(tx, session.session_id, candidate);
  if (!row) return undefined;
  if (await mark_offline_key_issued(tx, session.session_id)) {
    await insert_audit_event(tx, {
      userId: session.id,
      eventType: 'offline_key_issued',
      resourceType: 'session',
      resourceId: session.session_id,
      ipAddress,
    });
  }
  return { key: new Uint8Array(row.data_key), expiresAt: new Date(row.expires_at) };
}

/** base64url without padding, as the contract's `key` is read by the tablet. */
function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function toOfflineKey(
  session: ActiveSession,
  issued: { key: Uint8Array; expiresAt: Date },
  limits: Awaited<ReturnType<typeof tabletLimits>>,
): OfflineKey {
  return {
    key: base64Url(issued.key),
    userId: session.id,
    expiresAt: issued.expiresAt.toISOString(),
    ...limits,
  };
}

/** GET /api/auth/offline-key: the live session's data key and the tablet's limits. */
export async function offlineKey(
  deps: Deps,
  session: ActiveSession,
  ipAddress: string,
): Promise<OfflineKeyResult> {
  const limits = await tabletLimits(deps);
  const issued = await deps.sql.begin((tx) => issueKey(tx, session, ipAddress));
  if (!issued) return fail('session_ended');
  return { ok: true, key: toOfflineKey(session, issued, limits) };
}

/**
/**
 * POST /api/auth/lock: the tablet's lock screen went up; from now on the session may only unlock or sign out.
 * Audited 'session_locked' the first time. Fails for 'session_ended'.
 */
export async function lockSession(
  deps: Deps,
  session: ActiveSession,
  ipAddress: string,
): Promise<Outcome<Record<never, never>>> {
  return await deps.sql.begin(async (tx) => {
    if (!(await lock_session(tx, session.session_id))) return fail('session_ended');
    if (!session.locked) {
      await insert_audit_event(tx, {
        userId: session.id,
        eventType: 'session_locked',
        resourceType: 'session',
        resourceId: session.session_id,
        ipAddress,
      });
    }
    return { ok: true };
  });
}

/**
 * POST /api/auth/unlock: the offender's PIN on the lock screen, checked through the sign-in throttle; the right
 * one lifts the session's lock and answers the key. Fails for 'unlock_pin_wrong', 'unlock_locked' (the account
 * lock is in force: try again after `detail` minutes; the session stays), 'unlock_wait' (the account's growing
 * delay: `detail` seconds), 'throttled' (the address's budget), 'sign_in_busy' (too many checks at once from the
 * address) or 'session_ended'.
 */
export async function unlock(
  deps: Pick<AppDeps, 'sql' | 'pinPepper' | 'previousPinPepper'>,
  session: ActiveSession,
  attempt: { pin: string; ipAddress: string },
): Promise<OfflineKeyResult> {
  // The sign-in's own per-address limit on checks in flight: a lock screen is no cheaper way to burn the CPU.
  const release = signInsInFlight.tryAcquire(attempt.ipAddress);
  // A place in the hashing gate's line (passwords.ts), taken before the attempt is counted: a counted PIN is then
  // always checked, never refused half-way for a busy server. In the priority line (hashing_gate.ts) when within
  // the in-flight limit: a live session's own lock screen is a returning person's, which no stranger can send.
  const place = hashingGate.reserve(1, { priority: release !== undefined });
  try {
    return await checkUnlock(deps, session, attempt, { inFlightSlot: release !== undefined, place });
  } finally {
    release?.();
    place?.release();
  }
}

async function checkUnlock(
  deps: Pick<AppDeps, 'sql' | 'pinPepper' | 'previousPinPepper'>,
  session: ActiveSession,
  attempt: { pin: string; ipAddress: string },
  options: { inFlightSlot: boolean; place: HashingPlace | undefined },
): Promise<OfflineKeyResult> {
  const { sql } = deps;
  const key = accountAttemptKey(session, attempt.ipAddress);
  const audit = (tx: Tx, eventType: string, eventData: Record<string, unknown> = {}) =>
    insert_audit_event(tx, {
      userId: session.id,
      eventType,
      resourceType: 'session',
      resourceId: session.session_id,
      ipAddress: attempt.ipAddress,
      eventData,
    });
  /** The account lock is in force: refused for now; the session stays, locked, for its owner. */
  const refuseLocked = async (tx: Tx, reason: string) => {
    await lock_session(tx, session.session_id);
    await audit(tx, 'unlock_failed', { reason, accountLocked: true });
  };
  /** Counts a failure; at the limit the account locks (the session stays). */
  const failAttempt = async (
    limits: { limit: number; lockMinutes: number },
    reason: string,
    otherwise: Reason,
  ): Promise<OfflineKeyResult> => {
    return await sql.begin(async (tx) => {
      const { lockedNow } = await recordFailure(tx, key, limits);
      if (!lockedNow) {
        await audit(tx, 'unlock_failed', { reason });
        return fail(otherwise);
      }
      await insert_audit_event(tx, {
        userId: session.id,
        eventType: 'account_locked',
        resourceType: 'auth',
        ipAddress: attempt.ipAddress,
        eventData: { username: key.username, minutes: limits.lockMinutes, during: 'unlock' },
      });
      await refuseLocked(tx, reason);
      return fail('unlock_locked', String(limits.lockMinutes));
    });
  };

  // Refused before the attempt is counted when the process's hashing line is full (passwords.ts).
  const place = options.place;
  if (!place) return fail('hashing_busy');
  const admission = await admitAttempt(sql, key);
  if (!admission.admitted && admission.refusal === 'address_budget') {
    await audit(sql, 'unlock_failed', { reason: 'address_budget', failures: admission.addressFailures });
    return addressBudgetFailure(admission);
  }
  if (!admission.admitted && admission.refusal === 'wait') {
    // The account's growing delay: nothing was checked or counted; the session stays, locked, for its owner.
    await sql.begin(async (tx) => {
      await lock_session(tx, session.session_id);
      await audit(tx, 'unlock_failed', { reason: 'account_delay', waitSeconds: admission.waitSeconds });
    });
    return { ...fail('unlock_wait', String(admission.waitSeconds)), waitSeconds: admission.waitSeconds };
  }
  if (!admission.admitted) {
    await sql.begin((tx) => refuseLocked(tx, 'locked'));
    return fail('unlock_locked', String(admission.minutesLeft));
  }
  // Refused before any hashing, but counted like any failure (as a sign-in is).
  if (!options.inFlightSlot) return await failAttempt(admission.limits, 'in_flight', 'sign_in_busy');

  const hashes = await find_password_hashes(sql, session.id);
  const pinOk = await verifySecret(attempt.pin, hashes?.password_hash ?? (await dummySecretHash()), {
    place,
    pepper: deps.pinPepper,
    previousPepper: deps.previousPinPepper,
  });
  if (!pinOk || !hashes) return await failAttempt(admission.limits, 'bad_pin', 'unlock_pin_wrong');

  const limits = await tabletLimits(deps);
  const outcome = await sql.begin(async (tx): Promise<OfflineKeyResult> => {
    // A lock set by a concurrent attempt while this one was hashing: the right PIN is refused for now.
    if (!(await confirmSuccess(tx, key, admission.failureId))) {
      await refuseLocked(tx, 'locked');
      return fail('unlock_locked', String(admission.limits.lockMinutes));
    }
    if (!(await unlock_session(tx, session.session_id))) return fail('session_ended');
    const issued = await issueKey(tx, session, attempt.ipAddress);
    if (!issued) return fail('session_ended');
    await audit(tx, 'session_unlocked');
    return { ok: true, key: toOfflineKey(session, issued, limits) };
  });
  return outcome;
}

/**
 * Accounts for a prefetch of a document's bytes (fetched ahead for offline reading): not a reading, so no read
 * time is set, but the first one is the receipt's 'fetched' event (from then on the sender cannot withdraw it:
 * the tablet holds a copy); 'document_prefetched' once per session and document within the read-audit window,
 * through the same claim row as a view or a print (kind 'prefetch'). False when the document was withdrawn
 * between the check and this fetch: the caller answers it as missing.
 */
export async function recordPrefetch(
  deps: Deps,
  reader: ActiveSession,
  doc: DocumentToRead,
  options: { ipAddress: string },
): Promise<boolean> {
  // Fetched again within the window (a retried download): nothing to write, no transaction.
  if (doc.read_audited_recently && doc.prefetched_at) return true;
  return await deps.sql.begin(async (tx) => {
    if (!doc.prefetched_at && !(await mark_document_prefetched(tx, doc.id))) return false;
    const claimed = await claim_document_read_audit(tx, {
      sessionId: reader.session_id,
      documentId: doc.id,
      kind: 'prefetch',
    });
    if (!claimed) return true;
    await insert_audit_event(tx, {
      userId: reader.id,
      eventType: 'document_prefetched',
      resourceType: 'document',
      resourceId: doc.id,
      ipAddress: options.ipAddress,
      eventData: { title: doc.title, sha256: doc.sha256, ...pinResetAudit(reader) },
    });
    return true;
  });
}

/** What became of a batch of offline readings: ids recorded (now or before) and ids refused for good. */
export interface OfflineEventsOutcome {
  recorded: string[];
  refused: { id: string; reason: Reason }[];
}

/**
 * 500 readings received in one session, refused or not: ten times what a tablet's queue holds at its fullest
 * (a view and a print of each of the 50 documents of the largest prefetch, `offline_prefetch_count`'s ceiling;
 * the route takes 100 at a time, the tablet's batch). An offender reads a handful of letters in a session, and
 * the server keeps one view and one print per document within the read-audit window however many arrive; past
 * this a sender is flooding the log, and the rest are refused without a look or a row.
 */
export const OFFLINE_EVENTS_PER_SESSION = 500;
/** At most this many refused document ids (well-formed UUIDs only) are listed in a batch's summary row. */
const LISTED_REFUSED_IDS = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The bounds a batch's readings are checked against, read once per batch. */
interface BatchBounds {
  /** The session's start, less the clock skew allowed. */
  earliest: number;
  /** The server's clock, plus the clock skew allowed. */
  latest: number;
  windowMinutes: number;
  ipAddress: string;
}

/**
 * POST /api/documents/offline-events: the views and prints a tablet made from its cache while the network was
 * down. Each is a receipt the sender relies on, so each is taken only if the tablet could have made it: the
 * offender's own document, whose bytes reached this session (a view, print or prefetch served to it), at a
 * time inside the session, not before the upload and not before the bytes arrived (a clock up to a minute
 * slow is set to their arrival), and a print only of a PDF that allows printing. One offline view and one
 * offline print per document are recorded within the read-audit window
 * (`document_read_audit_window_minutes`); the others in it are accounted for by that one (answered as
 * recorded, so the tablet drops them). Online readings keep their own audit. Each reading is recorded once
 * whatever the retries (the tablet's event id), with its audit event written only by the insert that
 * happened, and sets the recipient's read time when it is the first known. Refusals are one summarised audit
 * row per batch (counts by reason, the refused document ids that are UUIDs), and a session past
 * OFFLINE_EVENTS_PER_SESSION gets the rest refused with no work and no row. The batch is one transaction
 * holding the session's row, so two batches of a session never both record a reading in the same window.
 */
export async function recordOfflineEvents(
  deps: Deps,
  session: ActiveSession,
  request: { events: OfflineReadEvent[]; ipAddress: string },
): Promise<Outcome<OfflineEventsOutcome>> {
  const { sql } = deps;
  const started = await find_session_start(sql, session.session_id);
  if (!started) return fail('session_ended');
  const bounds: BatchBounds = {
    earliest: new Date(started).getTime() - CLOCK_SKEW_BEFORE_MS,
    latest: Date.now() + CLOCK_SKEW_AFTER_MS,
    windowMinutes: await get_setting(sql, 'document_read_audit_window_minutes'),
    ipAddress: request.ipAddress,
  };
  // The same id twice in one batch is one event.
  const events = [...new Map(request.events.map((e) => [e.id.toLowerCase(), e])).entries()];
  return await sql.begin(async (tx): Promise<Outcome<OfflineEventsOutcome>> => {
    const before = await count_offline_events_received(tx, session.session_id, events.length);
    if (before === undefined) return fail('session_ended');
    const room = Math.max(0, OFFLINE_EVENTS_PER_SESSION - before);
    const result: OfflineEventsOutcome = { recorded: [], refused: [] };
    const refusedDocuments: string[] = [];
    for (const [index, [id, event]] of events.entries()) {
      const verdict = index < room
        ? await takeReading(tx, session, { ...event, id }, bounds)
        : 'offline_events_session_limit';
      if (verdict === 'recorded') {
        result.recorded.push(id);
      } else {
        result.refused.push({ id, reason: verdict });
        refusedDocuments.push(event.documentId.toLowerCase());
      }
    }
    const limitReached = before + events.length >= OFFLINE_EVENTS_PER_SESSION;
    // Past the limit a batch writes nothing: the row of the batch that reached it says so.
    if (before < OFFLINE_EVENTS_PER_SESSION && (result.refused.length > 0 || limitReached)) {
      const counts: Record<string, number> = {};
      for (const { reason } of result.refused) counts[reason] = (counts[reason] ?? 0) + 1;
      await insert_audit_event(tx, {
        userId: session.id,
        eventType: 'offline_events_refused',
        resourceType: 'session',
        resourceId: session.session_id,
        ipAddress: request.ipAddress,
        eventData: {
          counts,
          // The sender's own text never reaches the log: only ids shaped like documents, a few of them.
          documentIds: [...new Set(refusedDocuments.filter((d) => UUID.test(d)))].slice(
            0,
            LISTED_REFUSED_IDS,
          ),
          sessionLimitReached: limitReached,
        },
      });
    }
    return { ok: true, ...result };
  });
}

/** One reading of a batch, inside its transaction: 'recorded' (now, before, or in a recorded one's window) or why. */
async function takeReading(
  tx: Tx,
  session: ActiveSession,
  event: OfflineReadEvent,
  bounds: BatchBounds,
): Promise<'recorded' | Reason> {
  const doc = await findReadableDocument(tx, session, event.documentId);
  if (!doc || doc.recipient_id !== session.id) return 'document_not_found';
  const tabletTime = new Date(event.occurredAt);
  const at = tabletTime.getTime();
  if (!(at >= bounds.earliest && at <= bounds.latest)) return 'offline_event_time_impossible';
  // Before the upload nothing could be read, whatever the tablet's clock says.
  if (at < new Date(doc.uploaded_at).getTime()) return 'offline_event_time_impossible';
  const served = await find_first_served(tx, session.session_id, doc.id);
  if (!served) return 'offline_event_not_received';
  if (at < served.getTime() - CLOCK_SKEW_BEFORE_MS) return 'offline_event_time_impossible';
  if (event.kind === 'print' && !doc.print_allowed) return 'offline_print_not_allowed';
  // Never earlier than the bytes arrived: a slow tablet clock does not move the receipt before them.
  const occurredAt = new Date(Math.max(at, served.getTime()));

  const same = (row: Awaited<ReturnType<typeof find_offline_read_event>>) =>
    row?.session_id === session.session_id && row.document_id === doc.id && row.kind === event.kind;
  // A retry of a reading recorded before, or an id that names another.
  const existing = await find_offline_read_event(tx, event.id);
  if (existing) return same(existing) ? 'recorded' : 'offline_event_id_taken';
  const near = await offline_reading_recorded_near(tx, {
    sessionId: session.session_id,
    documentId: doc.id,
    kind: event.kind,
    at: occurredAt,
    windowMinutes: bounds.windowMinutes,
  });
  if (near) return 'recorded';
  const inserted = await insert_offline_read_event(tx, {
    id: event.id,
    sessionId: session.session_id,
    documentId: doc.id,
    kind: event.kind,
    occurredAt,
  });
  // Another session's concurrent send took the id first.
  if (!inserted) {
    return same(await find_offline_read_event(tx, event.id)) ? 'recorded' : 'offline_event_id_taken';
  }
  const marked = await mark_document_read_at(tx, doc.id, { at: occurredAt, kind: event.kind });
  if (marked.firstView) await queueOpenedNotice(tx, doc.id);
  await insert_audit_event(tx, {
    userId: session.id,
    eventType: event.kind === 'view' ? 'document_viewed' : 'document_printed',
    resourceType: 'document',
    resourceId: doc.id,
    ipAddress: bounds.ipAddress,
    eventData: {
      offline: true,
      occurredAt: occurredAt.toISOString(),
      tabletTime: tabletTime.toISOString(),
      clientEventId: event.id,
      title: doc.title,
      sha256: doc.sha256,
      ...pinResetAudit(session),
    },
  });
  return 'recorded';
}
