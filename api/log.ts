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

/** A logger writing to `write` (stdout and stderr by default). LOG_LEVEL=silent keeps only warnings and errors. */
export function createLogger(
  config: Pick<Config, 'logFormat' | 'logLevel'>,
  write: (level: LogLevel, line: string) => void = (level, line) =>
    level === 'info' ? console.log(line) : console.error(line),
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
