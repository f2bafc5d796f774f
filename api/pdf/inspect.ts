/**
 * Reads a PDF's page count, encryption, print permission and metadata in an isolated
 * subprocess (inspect_worker.ts): no permissions, a time limit, a V8 heap limit and a
 * resident-memory limit, at most two at a time and a bounded queue behind them. Known pdf.js
 * bugs let a 1 KiB file burn minutes of CPU or gigabytes of memory; here they cost one killed
 * child, and the API keeps answering.
 *
 * The heap flag alone is not a bound: typed arrays (decoded image and stream data) live outside
 * V8's old space, so a 747 KB PDF holding one compressed 16000×16000 image took a child to 1.6 GB.
 * The parent therefore samples the child's resident set (/proc/PID/status, Linux) and kills it past
 * `rssMb`, and counts its time limit in CPU time; where /proc cannot be read, the wall clock remains the
 * bound.
 */

export interface PdfMetadata {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  modDate: string | null;
  pdfVersion: string | null;
}

export interface PdfFacts {
  pages: number;
  encrypted: boolean;
  printAllowed: boolean;
  metadata: PdfMetadata;
}

export type InspectResult =
  | ({ ok: true } & PdfFacts)
  /**
   * unreadable: damaged or not a PDF; too_complex: the child ran out of time or memory;
   * busy: the queue is full, nothing was inspected (try again later).
   */
  | { ok: false; reason: 'unreadable' | 'too_complex' | 'busy' };

export interface InspectLimits {
  /**
   * CPU time (user and system) the child may use before it is killed; wall-clock time where /proc cannot be read.
   * Where it can, the wall clock still ends the child at WALL_CLOCK_FACTOR times this.
   */
  timeoutMs: number;
  /** V8 old-space limit of the child. */
  heapMb: number;
  /** Resident memory of the child (heap, typed arrays, code) past which it is killed. */
  rssMb: number;
}

/**
 * 15 s: a legitimate 10 MB, 500-page scan parses in about 2 s on one busy core (the child's start, Deno and
 * pdf.js, about 1 s more); 192 MB heap:
 * pdf.js needs about 40 MB for such a file; 320 MB resident: the Deno runtime itself takes about
 * 60 MB, the 100 MB largest upload is held once. All leave a wide margin for honest files only.
 */
export const DEFAULT_LIMITS: InspectLimits = { timeoutMs: 15_000, heapMb: 192, rssMb: 320 };

/** Two at a time: a flood of uploads queues instead of taking every core. */
const MAX_CONCURRENT = 2;
/**
 * Uploads waiting for a slot, each holding its body in memory: eight of the 100 MB largest is the most
 * the queue can hold; past it an upload is refused at once (503) instead of piling up.
 */
export const MAX_WAITING = 8;
/** How often the child's resident memory and CPU time are sampled. */
const RSS_SAMPLE_MS = 50;
/**
 * Where the child's CPU time is measured, its limit is CPU time: a server busy with other work (many uploads, a
 * flood of sign-ins) slows an honest parse in wall time without making the file any more complex. The wall clock
 * still ends a child that waits on nothing at this many times the limit.
 */
const WALL_CLOCK_FACTOR = 4;
/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux (USER_HZ). */
const TICKS_PER_SECOND = 100;
/** The worker's answer is one short JSON line; anything longer is not our worker talking. */
const MAX_ANSWER_BYTES = 64 * 1024;

const WORKER = new URL('./inspect_worker.ts', import.meta.url).pathname;
const PROJECT_CONFIG = new URL('../../deno.json', import.meta.url).pathname;

function denoEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: '1' };
  for (const key of ['DENO_DIR', 'HOME', 'XDG_CACHE_HOME']) {
    const value = Deno.env.get(key);
    if (value) env[key] = value;
  }
  return env;
}

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` in a slot, or answers `busy` at once when the queue is full. */
async function slot<T>(work: () => Promise<T>, busy: T): Promise<T> {
  if (running >= MAX_CONCURRENT) {
    if (waiting.length >= MAX_WAITING) return busy;
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line, or free it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Inspects one PDF (its bytes); never throws for anything the file can do. */
export function inspectPdf(
  bytes: Uint8Array,
  limits: InspectLimits = DEFAULT_LIMITS,
): Promise<InspectResult> {
  return slot(() => runWorker(bytes, limits), { ok: false, reason: 'busy' });
}

async function runWorker(bytes: Uint8Array, limits: InspectLimits): Promise<InspectResult> {
  const child = new Deno.Command(Deno.execPath(), {
    // No --allow-* flag at all: the worker reads stdin and writes stdout, nothing else.
    // pdfjs-dist is imported statically, which Deno resolves from node_modules without --allow-read.
    args: [
      'run',
      '--no-prompt',
      '--quiet',
      `--config=${PROJECT_CONFIG}`,
      '--cached-only',
      `--v8-flags=--max-old-space-size=${limits.heapMb}`,
      WORKER,
    ],
    stdin: 'piped',
    stdout: 'piped',
    stderr: 'null',
    // The child sees no environment (no --allow-env); the deno binary itself needs its cache location.
    env: denoEnv(),
    clearEnv: true,
  }).spawn();
  let killed = false;
  const kill = () => {
    killed = true;
    try {
      child.kill('SIGKILL');
    } catch { /* already gone */ }
  };
  // The wall clock is the limit until the child's CPU time is seen; from then on the CPU time is.
  let cpuMeasured = false;
  let timer = setTimeout(function wallClock() {
    if (!cpuMeasured) return kill();
    timer = setTimeout(kill, limits.timeoutMs * (WALL_CLOCK_FACTOR - 1));
  }, limits.timeoutMs);
  const sampler = setInterval(() => {
    const rss = residentMb(child.pid);
    if (rss !== undefined && rss > limits.rssMb) kill();
    const cpu = cpuMs(child.pid);
    if (cpu === undefined) return;
    cpuMeasured = true;
    if (cpu > limits.timeoutMs) kill();
  }, RSS_SAMPLE_MS);
  try {
    const feed = (async () => {
      const writer = child.stdin.getWriter();
      try {
        await writer.write(bytes);
        await writer.close();
      } catch { /* the child died early: its exit status tells why */ }
    })();
    const [answer, status] = await Promise.all([readCapped(child.stdout), child.status, feed]);
    if (killed || !status.success) return { ok: false, reason: 'too_complex' };
    return parseAnswer(answer);
  } finally {
    clearTimeout(timer);
    clearInterval(sampler);
  }
}

let unmeasuredReported = false;

/**
 * The resident memory of process `pid` in MB (VmRSS), or undefined where /proc cannot be read. Deno 2 reads
 * /proc/<pid>/ only with --allow-all, which the shipped unit and image do not give: there this sampler is off and
 * the other bounds hold (the V8 heap flag, the 40-megapixel refusal and pdf.js's maxImageSize before any image is
 * decoded, the time limit, the service's MemoryMax). Said once, not swallowed: an operator must know the check is off.
 */
function residentMb(pid: number): number | undefined {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch (error) {
    if (!unmeasuredReported && error instanceof Deno.errors.NotCapable) {
      unmeasuredReported = true;
      console.warn(
        "[pdf] Deno's permissions refuse /proc: the PDF inspector's 320 MB resident-memory check is off",
      );
    }
    return undefined;
  }
}

/** The CPU time process `pid` has used, user and system, in ms; undefined where /proc cannot be read. */
function cpuMs(pid: number): number | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name may hold spaces and parentheses: the fields are counted from its closing one. After it
    // come field 3 (state) onwards; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
  }
  return size > MAX_ANSWER_BYTES ? '' : new TextDecoder().decode(concat(chunks));
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function parseAnswer(answer: string): InspectResult {
  try {
    const parsed = JSON.parse(answer);
    if (parsed?.ok === true && Number.isInteger(parsed.pages) && parsed.pages >= 0) {
      return {
        ok: true,
        pages: parsed.pages,
        encrypted: parsed.encrypted === true,
        printAllowed: parsed.printAllowed === true,
        metadata: parsed.metadata,
      };
    }
    // The worker's own refusal of a file it would not parse (an image past its pixel limit).
    if (parsed?.ok === false && parsed.reason === 'too_complex') return { ok: false, reason: 'too_complex' };
  } catch { /* fall through */ }
  return { ok: false, reason: 'unreadable' };
}
