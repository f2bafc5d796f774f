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
 * Lines gathered and handed to `sink` together, `schedule` later (a timer tick by default): under load the lines
 * of many requests become one write. `flush` hands over what is pending at once.
 */
export function batchedLines(
  sink: (text: string) => void,
  schedule: (flush: () => void) => void = (flush) => setTimeout(flush, 0),
): { add(line: string): void; flush(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending.length) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    sink(text);
  };
  return {
    add(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
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
 * most until the next timer tick; a warning or an error first writes what is pending, then itself at once; the
 * exit ('unload', which Deno.exit and the end of the program fire) writes the rest. A crash can lose at most the
 * info lines of its last tick, never a warning or an error.
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
