/**
 * A per-process count of work in flight per key (a client address), refusing past a limit at once instead of
 * queueing. Sign-in uses it: each attempt costs two full PBKDF2 derivations, so a burst from one address would
 * otherwise take every core while the database counters are still being written.
 *
 * It lives in the domain, not in an HTTP middleware, because the use case decides what a refused attempt is worth
 * and audits it (auth.ts: a sign-in refused here checked no secret, so it counts toward no budget). Per process on
 * purpose: it bounds this process's CPU; the database counters are what every instance shares.
 */

/** Counts in-flight work per key; `tryAcquire` answers a release function, or undefined when the key is full. */
export class InFlightLimiter {
  readonly #counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes a slot for `key`, or answers undefined at once when `limit` are taken. Release exactly once. */
  tryAcquire(key: string): (() => void) | undefined {
    const taken = this.#counts.get(key) ?? 0;
    if (taken >= this.limit) return undefined;
    this.#counts.set(key, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#counts.get(key) ?? 1) - 1;
      // Dropped at zero, so the map holds only addresses signing in right now.
      if (left <= 0) this.#counts.delete(key);
      else this.#counts.set(key, left);
    };
  }

  /** Slots taken for `key` now (tests and diagnostics). */
  inFlight(key: string): number {
    return this.#counts.get(key) ?? 0;
  }
}
