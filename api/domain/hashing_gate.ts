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

/** Bounded concurrency with a bounded FIFO queue, and the counts metrics read. */
export class HashingGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  #admitted = 0;
  #refused = 0;

  constructor(readonly slots: number, readonly queueLimit: number) {}

  /**
   * Runs `work` in a slot, waiting in line for one when all are taken; throws HashingBusy at once (running
   * nothing) when the line is full too. `patient` work (an import, the demo seed, an admin's own action: not
   * something a stranger can repeat) waits in line past its limit instead: it still runs one slot at a time, and
   * while it waits the line is full for everyone else.
   */
  async run<T>(work: () => Promise<T>, options: { patient?: boolean } = {}): Promise<T> {
    if (this.#running >= this.slots) {
      if (this.#waiting.length >= this.queueLimit && !options.patient) {
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
   * True while a derivation would be run or queued rather than refused. A use case that counts an attempt
   * before it hashes (a sign-in) asks first, so that a busy server does not cost the person an attempt.
   */
  hasRoom(): boolean {
    return this.#running < this.slots || this.#waiting.length < this.queueLimit;
  }

  /** Derivations running now. */
  get running(): number {
    return this.#running;
  }

  /** Derivations waiting for a slot now. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Derivations started since the process began (run at once or after waiting). */
  get admitted(): number {
    return this.#admitted;
  }

  /** Derivations refused since the process began, the line being full. */
  get refused(): number {
    return this.#refused;
  }
}
