/**
 * The API's log: one JSON object per line (for journald, a container runtime or a collector), or readable
 * text for a terminal (LOG_FORMAT=text). Callers pass only what is safe to keep: ids, routes, statuses and
 * durations, never a token, PIN, password or document title.
 */
import type { Config } from './config.ts';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * How long an info line may wait for others to share its write. One timer tick is too short: behind
 * a front, where a request or two are in flight, each line would be a write of its own and a wake-up of the log's
 * reader (journald, the container runtime). In bench:stream's offload mode, alternated with the tick in one
 * sitting, the API spent 600-621 µs of CPU a reading against 608-697 µs; the ratio to nginx moved within its noise.
 */
const LOG_BATCH_WINDOW_MS = 50;
/** A batch this long is written at once: a burst never holds more lines than this in memory, nor back for long. */
const LOG_BATCH_MAX_LINES = 256;

/**
 * Lines gathered and handed to `sink` together: `schedule` runs the flush later (LOG_BATCH_WINDOW_MS by default,
 * on a timer that does not keep the process alive), or the `maxLines`-th pending line writes the batch at once.
 * `flush` hands over what is pending now.
 */
export function batchedLines(
  sink: (text: string) => void,
  schedule: (flush: () => void) => void = (flush) => Deno.unrefTimer(setTimeout(flush, LOG_BATCH_WINDOW_MS)),
  maxLines = LOG_BATCH_MAX_LINES,
): { add(line: string): void; flush(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    if (!pending.length) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    sink(text);
  };
  // One timer at a time: a batch written early for its length leaves the timer to write what follows it.
  const onSchedule = () => {
    scheduled = false;
    flush();
  };
  return {
    add(line) {
      pending.push(line);
      if (pending.length >= maxLines) return flush();
      if (!scheduled) {
        scheduled = true;
        schedule(onSchedule);
      }
    },
    flush,
  };
}

const encoder = new TextEncoder();

function writeStdout(text: string) {
  const bytes = encoder.encode(text);
  for (let written = 0; written < bytes.length;) written += Deno.stdout.writeSync(bytes.subarray(written));
}

/**
 * Info lines to stdout in batches: one write per line was 6.5% of the API's CPU time on the offender's list at 64
 * connections (a V8 profile), and each wakes the log's reader (journald, the container runtime). A line waits at
 * most LOG_BATCH_WINDOW_MS; a warning or an error first writes what is pending, then itself at once; the exit
 * ('unload', which Deno.exit and the end of the program fire) writes the rest. A crash that kills the process
 * outright can lose at most the info lines of its last LOG_BATCH_WINDOW_MS, never a warning or an error.
 */
const stdoutLines = batchedLines(writeStdout);
globalThis.addEventListener('unload', () => stdoutLines.flush());

function writeStandard(level: LogLevel, line: string) {
  if (level === 'info') return stdoutLines.add(line);
  stdoutLines.flush();
  console.error(line);
}

/** A logger writing to `write` (stdout and stderr by default). LOG_LEVEL=silent keeps only warnings and errors. */
export function createLogger(
  config: Pick<Config, 'logFormat' | 'logLevel'>,
  write: (level: LogLevel, line: string) => void = writeStandard,
): Logger {
  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (level === 'info' && config.logLevel === 'silent') return;
    const time = new Date().toISOString();
    if (config.logFormat === 'json') {
      write(level, JSON.stringify({ level, time, msg: message, ...fields }));
      return;
    }
    const extra = Object.entries(fields).filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : v}`).join(' ');
    write(level, `${time} ${level.toUpperCase().padEnd(5)} ${message}${extra ? ` ${extra}` : ''}`);
  };
  return {
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}
