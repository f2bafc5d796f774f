/**
 * What the offender's offline client exchanges with the API: the
 * session's data key, the lock screen's unlock, and the read events queued
 * while the network was down.
 */

/**
 * GET /api/auth/offline-key and POST /api/auth/unlock `data`: the key that
 * encrypts this session's cached mail, and the limits the tablet enforces by
 * its own clock while offline.
 */
export interface OfflineKey {
  /** 32 random bytes, base64url: a raw AES-256-GCM key. Never stored in the clear on the tablet. */
  key: string;
  /** The session's owner: a different user on the tablet means wipe. */
  userId: string;
  /** ISO 8601: the session's absolute end. */
  expiresAt: string;
  /** Minutes without interaction before the tablet's lock screen (setting tablet_lock_minutes). */
  lockMinutes: number;
  /** Minutes without interaction before the session ends and the tablet wipes (session_idle_minutes). */
  idleMinutes: number;
  /** Unread documents fetched ahead while online (setting offline_prefetch_count). */
  prefetchCount: number;
  /** The most the cache may hold, in MB (setting offline_storage_budget_mb). */
  storageBudgetMb: number;
}

/** POST /api/auth/unlock body: the offender's PIN, typed on the lock screen. */
export interface UnlockRequest {
  pin: string;
}

/** A view or print of a cached document while offline, queued on the tablet. */
export interface OfflineReadEvent {
  /** A UUID the tablet chose: sending the same event twice records it once. */
  id: string;
  documentId: string;
  kind: 'view' | 'print';
  /** ISO 8601, by the tablet's clock: when the reading happened. */
  occurredAt: string;
}

/** POST /api/documents/offline-events body (at most 100 events). */
export interface OfflineEventsRequest {
  events: OfflineReadEvent[];
}

/** POST /api/documents/offline-events `data`: every event is either recorded (now or before) or refused. */
export interface OfflineEventsResult {
  /** Ids recorded, including ones recorded by an earlier send. */
  recorded: string[];
  /** Ids refused for good (not this person's document, a time outside the session): drop them, don't retry. */
  refused: { id: string; message: string }[];
}

/** GET /api/auth/offline-key and POST /api/auth/unlock answer. */
export interface OfflineKeyAnswer {
  success: true;
  data: OfflineKey;
}
