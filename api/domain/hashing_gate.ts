/**
 * The one gate every password and PIN derivation passes (api/domain/passwords.ts): at most `slots` run at once,
 * at most `queueLimit` wait behind them in order, and any further one is refused at once with HashingBusy.
 *
 * Why a bounded queue and not only a bounded concurrency: every route that hashes (sign-in, the tablet's unlock,
 * the set-password link, registration, password change, an admin's PIN reset) can be called by someone who does
 * not care about the answer. With an unbounded queue a flood waits its turn ahead of the people signing in, and
 * each of them waits as long as the whole flood takes (8 clients on the set-password route took a sign-in from
 * 178 ms to 1.7 s). With a short queue the flood is told "busy, try again" (503 with Retry-After) and a
 * person's sign-in waits at most a queue's length of derivations.
 *
 * Per process on purpose, as the sign-in's in-flight limit: it bounds this process's cores; the database's
 * counters are what every instance shares.
 */

/** Thrown when the gate is full: the server is too busy to check a password now (api/http/errors.ts: 503). */
export class HashingBusy extends Error {
  constructor() {
    super('password hashing is at its limit');
    this.name = 'HashingBusy';
  }
}

/**
 * Places in line taken ahead of time by one request that counts an attempt before it hashes (a sign-in, an
 * unlock, a password change): its derivations then wait their turn instead of being refused, so an attempt that
 * was counted is always checked. Release it once the request is done hashing (places not used are given back).
 */
export class HashingPlace {
  #left: number;

  constructor(readonly gate: HashingGate, places: number) {
    this.#left = places;
  }

  /** Uses one of the places for a derivation starting now; false when none is left. */
  claim(): boolean {
    if (this.#left === 0) return false;
    this.#left--;
    this.gate.giveBack(1);
    return true;
  }

  /**
   * Adds `places` to this request's, whatever the line (a sign-in that finds a second hash to check): only a
   * request already admitted may, so the line can pass its limit by no more than such a request's own checks.
   */
  extend(places: number): void {
    this.#left += places;
    this.gate.takeExtra(places);
  }

  /** Gives back the places not used. */
  release(): void {
    this.gate.giveBack(this.#left);
    this.#left = 0;
  }
}

/** Bounded concurrency with a bounded FIFO queue, and the counts metrics read. */
export class HashingGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  /** Places requests took ahead (HashingPlace) and have not used yet: they count as places in line. */
  #reserved = 0;
  #admitted = 0;
  #refused = 0;

  constructor(readonly slots: number, readonly queueLimit: number) {}

  /** True when every slot is busy and the line (waiting and reserved places) is full. */
  #full(extra = 0): boolean {
    return this.#running >= this.slots && this.#waiting.length + this.#reserved + extra > this.queueLimit;
  }

  /**
   * Takes `places` in line for one request, or undefined (counted as a refusal) when the line has no room: the
   * request is then refused before it counts anything.
   */
  reserve(places = 1): HashingPlace | undefined {
    if (this.#running + this.#waiting.length + this.#reserved + places > this.slots + this.queueLimit) {
      this.#refused++;
      return undefined;
    }
    this.#reserved += places;
    return new HashingPlace(this, places);
  }

  /** A HashingPlace's added places (HashingPlace.extend). */
  takeExtra(places: number): void {
    this.#reserved += places;
  }

  /** A HashingPlace's places, used or given back. */
  giveBack(places: number): void {
    this.#reserved = Math.max(0, this.#reserved - places);
  }

  /**
   * Runs `work` in a slot, waiting in line for one when all are taken; throws HashingBusy at once (running
   * nothing) when the line is full too. `patient` work (an import, the demo seed, an admin's own action: not
   * something a stranger can repeat) waits in line past its limit instead: it still runs one slot at a time, and
   * while it waits the line is full for everyone else. Work under a `place` taken ahead uses that place and waits.
   */
  async run<T>(
    work: () => Promise<T>,
    options: { patient?: boolean; place?: HashingPlace } = {},
  ): Promise<T> {
    const placed = options.place?.claim() ?? false;
    if (this.#running >= this.slots) {
      if (!options.patient && !placed && this.#full(1)) {
        this.#refused++;
        throw new HashingBusy();
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else this.#running++;
    this.#admitted++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line (the count stays), or is given back.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }

  /**
   * True while a derivation would be run or queued rather than refused.
   */
  hasRoom(): boolean {
    return !this.#full(1);
  }

  /** Derivations running now. */
  get running(): number {
    return this.#running;
  }

  /** Derivations waiting for a slot now. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Places taken ahead by requests and not used yet. */
  get reserved(): number {
    return this.#reserved;
  }

  /** Derivations started since the process began (run at once or after waiting). */
  get admitted(): number {
    return this.#admitted;
  }

  /** Derivations and requests refused since the process began, the line being full. */
  get refused(): number {
    return this.#refused;
  }
}
