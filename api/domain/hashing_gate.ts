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
 * Why a second, priority line: a short queue alone bounds the wait but not who gets the places. A flood from many
 * addresses (each new, so no per-address budget bites) kept the one line full, and a person's sign-in was told
 * "busy" again and again (a median of 10.8 s under 24 flooding clients, bench/hashing_flood.ts). Requests that
 * are very likely a returning person (api/domain/known_client.ts decides which) take places in a line of their
 * own, `priorityLimit` long, which ordinary requests can never take and which is served first when a slot frees.
 * Both lines stay bounded; a known address that floods is held by the sign-in's per-address in-flight limit and
 * budgets, so it cannot fill the priority line beyond them.
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

/** The gate's two lines: everyone's, and the one kept for requests that are very likely a returning person. */
export type HashingLine = 'ordinary' | 'priority';

/**
 * Priority starts in a row while ordinary work waits, before one ordinary start: 4, so a known client waits at
 * most a quarter longer than under strict priority, while the ordinary line still moves (one start in five) when
 * known clients keep their line busy, and a newcomer's sign-in waits a bounded time instead of for ever.
 */
export const PRIORITY_TURNS = 4;

/**
 * Places in line taken ahead of time by one request that counts an attempt before it hashes (a sign-in, an
 * unlock, a password change): its derivations then wait their turn instead of being refused, so an attempt that
 * was counted is always checked. Release it once the request is done hashing (places not used are given back).
 * The places are in one line (`line`), and the derivations wait in that line.
 */
export class HashingPlace {
  #left: number;

  constructor(readonly gate: HashingGate, places: number, readonly line: HashingLine = 'ordinary') {
    this.#left = places;
  }

  /** Uses one of the places for a derivation starting now; false when none is left. */
  claim(): boolean {
    if (this.#left === 0) return false;
    this.#left--;
    this.gate.giveBack(1, this.line);
    return true;
  }

  /**
   * Adds `places` to this request's, whatever the line (a sign-in that finds a second hash to check): only a
   * request already admitted may, so the line can pass its limit by no more than such a request's own checks.
   */
  extend(places: number): void {
    this.#left += places;
    this.gate.takeExtra(places, this.line);
  }

  /** Gives back the places not used. */
  release(): void {
    this.gate.giveBack(this.#left, this.line);
    this.#left = 0;
  }
}

interface Line {
  readonly waiting: (() => void)[];
  /** Places requests took ahead (HashingPlace) and have not used yet: they count as places in line. */
  reserved: number;
  readonly limit: number;
}

/** Bounded concurrency with two bounded FIFO queues, the priority one served first, and the counts metrics read. */
export class HashingGate {
  #running = 0;
  readonly #lines: Record<HashingLine, Line>;
  /** Priority starts since the last ordinary one while ordinary work waited (PRIORITY_TURNS). */
  #priorityInARow = 0;
  #admitted = 0;
  #refused = 0;

  /** `priorityLimit`: the priority line's places (as many as the ordinary line's unless told). */
  constructor(readonly slots: number, readonly queueLimit: number, readonly priorityLimit = queueLimit) {
    this.#lines = {
      ordinary: { waiting: [], reserved: 0, limit: queueLimit },
      priority: { waiting: [], reserved: 0, limit: priorityLimit },
    };
  }

  /** True when every slot is busy and the ordinary line (waiting and reserved places) is full. */
  #full(extra = 0): boolean {
    const { waiting, reserved } = this.#lines.ordinary;
    return this.#running >= this.slots && waiting.length + reserved + extra > this.queueLimit;
  }

  /**
   * Takes `places` in line for one request, or undefined (counted as a refusal) when the line has no room: the
   * request is then refused before it counts anything. `priority`: a request that is very likely a returning
   * person takes them in the priority line, or in the ordinary line when the priority line is full (never worse
   * off than anyone else); an ordinary request never takes the priority line's places.
   */
  reserve(places = 1, options: { priority?: boolean } = {}): HashingPlace | undefined {
    const priority = this.#lines.priority;
    if (options.priority && priority.waiting.length + priority.reserved + places <= priority.limit) {
      priority.reserved += places;
      return new HashingPlace(this, places, 'priority');
    }
    const ordinary = this.#lines.ordinary;
    if (this.#running + ordinary.waiting.length + ordinary.reserved + places > this.slots + this.queueLimit) {
      this.#refused++;
      return undefined;
    }
    ordinary.reserved += places;
    return new HashingPlace(this, places, 'ordinary');
  }

  /** A HashingPlace's added places (HashingPlace.extend). */
  takeExtra(places: number, line: HashingLine): void {
    this.#lines[line].reserved += places;
  }

  /** A HashingPlace's places, used or given back. */
  giveBack(places: number, line: HashingLine): void {
    const counts = this.#lines[line];
    counts.reserved = Math.max(0, counts.reserved - places);
  }

  /**
   * Runs `work` in a slot, waiting in line for one when all are taken; throws HashingBusy at once (running
   * nothing) when the line is full too. `patient` work (an import, the demo seed, an admin's own action: not
   * something a stranger can repeat) waits in the ordinary line past its limit instead: it still runs one slot at
   * a time, and while it waits that line is full for everyone else. Work under a `place` taken ahead uses that
   * place and waits in the place's line.
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
      const line = placed ? options.place!.line : 'ordinary';
      await new Promise<void>((resolve) => this.#lines[line].waiting.push(resolve));
    } else this.#running++;
    this.#admitted++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line (the count stays), or is given back.
      const next = this.#next();
      if (next) next();
      else this.#running--;
    }
  }

  /** The next waiting derivation: the priority line's first, unless it has had PRIORITY_TURNS in a row. */
  #next(): (() => void) | undefined {
    const priority = this.#lines.priority.waiting;
    const ordinary = this.#lines.ordinary.waiting;
    if (priority.length > 0 && (ordinary.length === 0 || this.#priorityInARow < PRIORITY_TURNS)) {
      this.#priorityInARow = ordinary.length > 0 ? this.#priorityInARow + 1 : 0;
      return priority.shift();
    }
    this.#priorityInARow = 0;
    return ordinary.shift();
  }

  /**
   * True while a derivation would be run or queued rather than refused.
   */
  hasRoom(): boolean {
    return !this.#full(1);
  }

  /** One line's derivations waiting for a slot now, its places taken ahead and not used yet, and its length. */
  lineCounts(line: HashingLine): { queued: number; reserved: number; limit: number } {
    const { waiting, reserved, limit } = this.#lines[line];
    return { queued: waiting.length, reserved, limit };
  }

  /** Derivations running now. */
  get running(): number {
    return this.#running;
  }

  /** Derivations waiting for a slot now, in both lines. */
  get queued(): number {
    return this.#lines.ordinary.waiting.length + this.#lines.priority.waiting.length;
  }

  /** Places taken ahead by requests and not used yet, in both lines. */
  get reserved(): number {
    return this.#lines.ordinary.reserved + this.#lines.priority.reserved;
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
