/**
 * The offender tablet's session in the main window: whether the cache is open (unlocked), shut
 * (locked: the PIN reopens it) or not available (no key was ever given here, and the network is down), the
 * client's own clock (lock after `lockMinutes` without a touch, wipe after the idle limit, offline too), the lock
 * screen's PIN, the queue of readings made offline and its sending, the prefetch of unread documents, and the key
 * holder that answers the viewer pop-ups (documentChannel.ts). Everything it stores goes through
 * lib/state/browserState.ts.
 */
import { SETTINGS } from '../../../contract/settings.ts';
import type { OfflineKey, OfflineReadEvent } from '../../../contract/shapes/offline.ts';
import { logout } from '../auth/authApi.ts';
import { ApiError } from '../lib/api.ts';
import { browserState, type ClearResult, clearSession } from '../lib/state/browserState.ts';
import { storage } from '../lib/storage.ts';
import { isOnline } from './connectivity.ts';
import { type KeyHolder, type ReadKind, serveKeyHolder } from './documentChannel.ts';
import {
  fetchForOffline,
  fetchOfflineKey,
  lockOnServer,
  OFFLINE_EVENTS_BATCH,
  sendOfflineEvents,
  unlockOnline,
} from './offlineApi.ts';

/** How often the client's clock is checked against the lock time and the idle limit. */
export const CLOCK_CHECK_MS = 5_000;

export type TabletPhase =
  /** Deciding (reading the clock, asking the server for the key). */
  | 'starting'
  /** The key is in memory: the cache is readable and written. */
  | 'unlocked'
  /** The lock screen: the list is hidden, the PIN reopens the cache. */
  | 'locked'
  /**
   * No key here (none was ever given on this tablet, or the server would not give it): the list from the
   * network, no cache. The clock still locks it. A tablet that had a key and lost it to a reload while offline
   * is 'locked' instead: its letters are kept, sealed, for the PIN once the network returns.
   */
  | 'network-only'
  /** The session is over (wiped): the portal goes to /login. */
  | 'ended';

export interface TabletState {
  phase: TabletPhase;
  /** Why the session ended, for the sign-in screen's message. */
  endedBy: 'idle' | null;
}

let state: TabletState = { phase: 'starting', endedBy: null };

/**
 * The lock time when the session's own limits are not stored here (no key was ever given on this tablet): the
 * setting's default.
 */
const FALLBACK_LOCK_MS = SETTINGS.tablet_lock_minutes.default * 60_000;
/** The last touch seen by this window, for FALLBACK_LOCK_MS (the stored clock is the session's). */
let lastTouch = Date.now();

const listeners = new Set<() => void>();

function set(next: Partial<TabletState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const tabletState = {
  get: (): TabletState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

function end(endedBy: TabletState['endedBy']): Promise<ClearResult> {
  set({ phase: 'ended', endedBy });
  return clearSession();
}

/**
 * A wipe by the tablet's own clock: the server is told first (the session ends there, its key with it), then
 * everything here goes. Offline the call fails at once; the server's idle limit, which the tablet's matches, has
 * ended the session there by then anyway.
 */
async function endByClock(): Promise<ClearResult> {
  set({ phase: 'ended', endedBy: 'idle' });
  await logout(storage.getGuid());
  return clearSession();
}

/** The lock has still to reach the server (it was made without the network). */
let lockPending = false;

/**
 * Tells the server the tablet is locked, so the session's token opens nothing but unlock and logout. Without the
 * network it is kept for the first moment the network returns, before anything else is sent.
 */
async function tellServerLocked(): Promise<void> {
  const token = storage.getGuid();
  if (!token) return;
  lockPending = true;
  try {
    await lockOnServer(token);
    lockPending = false;
  } catch (error) {
    // Ended meanwhile (401: the list's own reaction wipes) or refused: nothing left to lock.
    if (!unreachable(error)) lockPending = false;
  }
}

/** When the network returns: a lock made offline reaches the server before anything else is sent. */
export async function sendPendingLock(): Promise<void> {
  if (lockPending && state.phase === 'locked') await tellServerLocked();
}

/** The server's answer to a key request says the session is gone. */
function sessionGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

function unreachable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/**
 * Whether the session that `token` signed is still this browser's. Work that outlives its session (a key request
 * answered after Log Off, a prefetch still downloading when the next person signs in) must not touch the next
 * one: otherwise A's prefetched document could be sealed into B's cache, A's next one asked for with B's token, or a
 * key answered after A's Log Off put back into memory and IndexedDB.
 */
function stillIn(token: string | null): boolean {
  return token !== null && storage.getGuid() === token;
}

async function takeKey(offlineKey: OfflineKey, pin?: string): Promise<boolean> {
  const result = pin === undefined
    ? await browserState.acceptKey(offlineKey)
    : await browserState.rememberKey(offlineKey, pin);
  return result.ok;
}

/**
 * Opens the tablet session when the offender's portal mounts (after a sign-in, a reload, or a return from the
 * lock): by the client's clock first, then from the server when online and not locked, else the lock screen.
 */
export async function startTabletSession(): Promise<void> {
  set({ phase: 'starting', endedBy: null });
  lastTouch = Date.now();
  const clock = await browserState.checkClock();
  if (clock.ok && clock.value === 'wipe') {
    await endByClock();
    return;
  }
  const verdict = await browserState.enforceClock();
  const info = await browserState.session();
  const stored = info.ok ? info.value : null;
  if (browserState.isUnlocked() && !stored?.locked) return set({ phase: 'unlocked' });
  // Locked stays locked, whether or not the PIN can unwrap a key here: without one the lock screen says the
  // network is needed (a reload while offline must not show the portal, to be unlocked once online).
  if (stored?.locked || (verdict.ok && verdict.value === 'lock')) {
    set({ phase: 'locked' });
    // The server may not have heard yet (locked offline, then reloaded): it is told again.
    void tellServerLocked();
    return;
  }
  if (isOnline()) {
    const token = storage.getGuid();
    try {
      const key = await fetchOfflineKey({ token });
      if (!stillIn(token)) return;
      if (await takeKey(key)) return set({ phase: 'unlocked' });
    } catch (error) {
      // A session the server no longer knows: the list's own 401 says so in the spec's words and goes to /logout,
      // which wipes the tablet; anything else but a missing answer, the portal runs without a cache.
      if (!unreachable(error)) return set({ phase: 'network-only' });
    }
  }
  // Offline (or the server did not answer): the PIN unwraps the key wrapped in this window's memory, if any.
  if (stored?.canUnlockOffline) return set({ phase: 'locked' });
  if (stored) {
    // The mail is sealed on this tablet, but a reload forgot its key and only the server holds it: the lock
    // screen says the letters are kept, locked, until the network returns and the PIN is typed. The lock is
    // written down (and reaches the server when the network returns), so the portal never shows an empty list
    // and a failed load for mail that is there.
    await browserState.lock();
    set({ phase: 'locked' });
    void tellServerLocked();
    return;
  }
  // No key was ever given on this tablet: the list from the network only.
  set({ phase: 'network-only' });
}

/** After the offender's online sign-in: the key, wrapped under the PIN just typed, so the lock screen works offline. */
export async function keepKeyAfterSignIn(pin: string): Promise<void> {
  const token = storage.getGuid();
  try {
    const key = await fetchOfflineKey({ token });
    if (stillIn(token)) await takeKey(key, pin);
  } catch {
    // No key: the portal asks again when it opens, and runs from the network until one is given.
  }
}

/**
 * The lock: the key and the list leave memory, the pop-ups close, the lock screen shows; the lock is written
 * down with the session's clock, so a reload asks for the PIN again. Where no key was ever given here there is
 * nothing to write it in, and a reload online would open the portal again: the session ends instead (the
 * offender signs in again with the same PIN).
 */
export async function lockTablet(): Promise<void> {
  if (state.phase !== 'unlocked' && state.phase !== 'network-only') return;
  const info = await browserState.session();
  if (!info.ok || !info.value) {
    // The API's answer clears the site's data: it lands before the wipe, never after the next sign-in.
    await logout(storage.getGuid());
    await end('idle');
    return;
  }
  set({ phase: 'locked' });
  holder?.announceLock();
  await browserState.lock();
  await tellServerLocked();
}

export type UnlockOutcome =
  | { ok: true }
  | { ok: false; reason: 'wrong-pin'; attemptsLeft: number }
  | { ok: false; reason: 'ended' }
  /** Five wrong PINs: the PIN is checked online only from now on (the server's throttle). Nothing was wiped. */
  | { ok: false; reason: 'too-many-pins' }
  /** The server refused for now (too many attempts from this address, busy): its refusal, with its code. */
  | { ok: false; reason: 'refused'; error: unknown }
  | { ok: false; reason: 'no-key' };

/**
 * The lock screen's PIN: checked by the server when it answers (its throttle counts it; a right PIN returns
 * the key, wrapped anew under this PIN), by unwrapping the stored key when it does not. Five wrong ones wipe.
 */
export async function unlockTablet(pin: string): Promise<UnlockOutcome> {
  if (isOnline()) {
    // A lock made offline reaches the server before the PIN does, so it can never land after the unlock.
    await sendPendingLock();
    const token = storage.getGuid();
    try {
      const key = await unlockOnline(pin, token);
      if (!stillIn(token)) return { ok: false, reason: 'ended' };
      lockPending = false;
      if (!(await takeKey(key, pin))) return { ok: false, reason: 'no-key' };
      set({ phase: 'unlocked' });
      return { ok: true };
    } catch (error) {
      if (sessionGone(error)) {
        await end(null);
        return { ok: false, reason: 'ended' };
      }
      if (error instanceof ApiError && error.status === 403) {
        return answer(await browserState.wrongPinOnline());
      }
      if (!unreachable(error)) {
        return { ok: false, reason: 'refused', error };
      }
      // Not reachable after all: the offline check below.
    }
  }
  return answer(await browserState.unlockWithPin(pin));
}

function answer(
  result: Awaited<ReturnType<typeof browserState.unlockWithPin>>,
): UnlockOutcome {
  if (result.ok) {
    // Unlocked offline before the lock reached the server: the server need not hear of it any more.
    lockPending = false;
    set({ phase: 'unlocked' });
    return { ok: true };
  }
  if (result.reason === 'too-many-pins') return { ok: false, reason: 'too-many-pins' };
  if (result.reason === 'wrong-pin') {
    return { ok: false, reason: 'wrong-pin', attemptsLeft: result.attemptsLeft };
  }
  if (result.reason === 'wiped') {
    set({ phase: 'ended', endedBy: 'idle' });
    return { ok: false, reason: 'ended' };
  }
  return { ok: false, reason: 'no-key' };
}

/** A touch, a key, a scroll, here or in a viewer pop-up: the clock starts again. */
export function recordActivity(): void {
  lastTouch = Date.now();
  if (state.phase === 'unlocked' || state.phase === 'network-only') void browserState.recordActivity();
}

/**
 * Checks the clock: locks past the lock time, wipes past the idle limit or the session's end. Reading from the
 * network only, too: a portal whose key request failed must still lock.
 */
export async function checkTabletClock(): Promise<void> {
  if (state.phase === 'starting' || state.phase === 'ended') return;
  const verdict = await browserState.checkClock();
  if (verdict.ok && verdict.value === 'wipe') {
    await endByClock();
    return;
  }
  const stored = verdict.ok && verdict.value !== 'none';
  if (stored ? verdict.value === 'lock' : Date.now() - lastTouch >= FALLBACK_LOCK_MS) await lockTablet();
}

/** A send that found no network is tried again after this long, while the browser says it is online. */
export const SEND_RETRY_MS = 5_000;

let sending: Promise<void> | null = null;
/** Asked again while a send was under way: one more pass when it ends (it may have started before the network). */
let sendAgain = false;
let sendRetry: ReturnType<typeof setTimeout> | null = null;

/**
 * Sends the queued offline readings, oldest first, in batches; what the API recorded (now or on an earlier
 * send) or refused for good leaves the queue. One send at a time; a send asked for meanwhile runs after it, and
 * one that found no network is retried shortly (the browser's `online` event can come before the network works).
 */
export function sendQueuedReadings(): Promise<void> {
  if (sending) {
    sendAgain = true;
    return sending;
  }
  sending = (async () => {
    let unreachable = false;
    try {
      // A lock made offline goes first: nothing is sent for a session the server should already hold locked.
      await sendPendingLock();
      if (state.phase === 'locked') return;
      for (;;) {
        const queued = await browserState.queuedEvents();
        if (!queued.ok || queued.value.length === 0) return;
        const batch = queued.value.slice(0, OFFLINE_EVENTS_BATCH);
        const result = await sendOfflineEvents(batch);
        const done = [...result.recorded, ...result.refused.map((r) => r.id)];
        if (done.length === 0) return;
        await browserState.removeEvents(done);
        if (batch.length < OFFLINE_EVENTS_BATCH) return;
      }
    } catch (error) {
      // No network: kept, and tried again. A refusal (the session ended): kept until the wipe takes it.
      unreachable = error instanceof ApiError && error.status === 0;
    } finally {
      sending = null;
      if (sendAgain) {
        sendAgain = false;
        void sendQueuedReadings();
      } else if (unreachable && isOnline() && !sendRetry) {
        sendRetry = setTimeout(() => {
          sendRetry = null;
          void sendQueuedReadings();
        }, SEND_RETRY_MS);
      }
    }
  })();
  return sending;
}

/** How long a logout waits for the queue to reach the API before it wipes the tablet anyway. */
export const LEAVE_SEND_MS = 2_000;

/**
 * Before a logout: the queued readings are sent when the network is there, for at most LEAVE_SEND_MS (a logout
 * never waits on a network that hangs). What is still queued after that is deleted with the rest.
 */
export async function sendBeforeLeaving(): Promise<void> {
  if (!isOnline()) return;
  const queued = await browserState.queuedEvents();
  if (!queued.ok || queued.value.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    sendQueuedReadings(),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LEAVE_SEND_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** A reading made from the cache: queued with the tablet's time, sent at once when the network is there. */
export async function queueReading(documentId: string, kind: ReadKind, occurredAt: string): Promise<void> {
  const event: OfflineReadEvent = { id: crypto.randomUUID(), documentId, kind, occurredAt };
  const queued = await browserState.queueEvent(event);
  if (queued.ok && isOnline()) void sendQueuedReadings();
}

let persistAsked = false;
/** The prefetch under way, and the session it is for. */
let prefetching: { token: string; done: Promise<void> } | null = null;

/**
 * While online and unlocked: the unread documents not cached yet, fetched whole for reading offline, at most
 * `prefetchCount` of them (the session's setting), one at a time; putDocument keeps the storage budget by
 * evicting the least recently read. A prefetch is not a reading (no read time; the API audits it as a prefetch).
 */
export function prefetchUnread(unread: readonly string[]): Promise<void> {
  const token = storage.getGuid();
  if (!token) return Promise.resolve();
  if (prefetching?.token === token) return prefetching.done;
  const run: { token: string; done: Promise<void> } = { token, done: Promise.resolve() };
  prefetching = run;
  run.done = (async () => {
    try {
      if (!persistAsked && typeof navigator !== 'undefined' && navigator.storage?.persist) {
        persistAsked = true;
        // A persisted origin is not evicted by the browser under storage pressure; refusal changes nothing else.
        await navigator.storage.persist().catch(() => false);
      }
      const info = await browserState.session();
      const cached = await browserState.cachedDocuments();
      if (!info.ok || !info.value || !cached.ok) return;
      const have = new Set(cached.value.map((entry) => entry.id));
      const wanted = unread.filter((id) => !have.has(id)).slice(0, info.value.prefetchCount);
      for (const id of wanted) {
        if (state.phase !== 'unlocked' || !isOnline() || !stillIn(token)) return;
        const bytes = await fetchForOffline(id, { token });
        if (state.phase !== 'unlocked' || !stillIn(token)) return;
        const stored = await browserState.putDocument(id, bytes, false);
        if (!stored.ok && stored.reason !== 'too-large') return;
      }
    } catch {
      // The network went, or the session: what was fetched so far stays.
    } finally {
      if (prefetching === run) prefetching = null;
    }
  })();
  return run.done;
}

/** The key holder of this window: the cache, while unlocked. */
export const localHolder: KeyHolder = {
  async get(documentId) {
    if (state.phase !== 'unlocked') return null;
    const bytes = await browserState.getDocument(documentId);
    return bytes.ok ? bytes.value : null;
  },
  put(documentId, bytes) {
    if (state.phase === 'unlocked') void browserState.putDocument(documentId, bytes, true);
  },
  read(documentId, kind, occurredAt) {
    if (state.phase === 'unlocked') void queueReading(documentId, kind, occurredAt);
  },
  activity() {
    recordActivity();
  },
};

let holder: ReturnType<typeof serveKeyHolder> | null = null;

/** Answers the viewer pop-ups while the portal is mounted; returns the way to stop. */
export function serveViewerPopups(): () => void {
  holder?.stop();
  holder = serveKeyHolder(localHolder, () => state.phase === 'unlocked' || state.phase === 'network-only');
  return () => {
    holder?.stop();
    holder = null;
  };
}
