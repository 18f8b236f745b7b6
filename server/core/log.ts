import { pino, type Logger as Pino } from 'pino';
import { currentRequest } from './http/requestContext';

/** pino's levels that the configuration names (`silent` logs nothing). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFormat = 'text' | 'json';

/** Extra fields of a line (JSON keys, or `key=value` in text); never a secret. */
export type LogFields = Record<string, unknown>;

/** The server's logger; never pass secrets to it. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, err?: unknown): void;
}

const LEVEL_NUMBERS = { debug: 20, info: 30, warn: 40, error: 50, silent: Infinity } as const;

const show = (v: unknown) => {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
};

/**
 * stdout, shared by every logger of the process and written asynchronously: lines gather for up to
 * FLUSH_MS or FLUSH_BYTES and go in one write (in a restart storm a write per turn of the event
 * loop was still a write per request or two, each handed to the thread pool), and while one write
 * is under way the next lines gather too. What is still buffered at exit is written synchronously
 * then; a process killed outright loses at most FLUSH_MS of lines.
 */
interface LogSink {
  write(line: string): boolean;
}
const FLUSH_MS = 50;
const FLUSH_BYTES = 16 * 1024;
let stdout: LogSink | null = null;
function sharedStdout(): LogSink {
  if (!stdout) {
    const dest = pino.destination({ dest: 1, sync: false });
    let pending = '';
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (pending) dest.write(pending);
      pending = '';
    };
    process.once('exit', () => {
      try {
        flush();
        dest.flushSync();
      } catch {
        // stdout already closed: nothing more can be said
      }
    });
    stdout = {
      write(line) {
        pending += line;
        if (pending.length >= FLUSH_BYTES) flush();
        else timer ??= setTimeout(flush, FLUSH_MS).unref();
        return true;
      },
    };
  }
  return stdout;
}

/**
 * One line of readable text: `time level [request id] message key=value…`, an error's stack after
 * a dash — the terminal's format, as the server printed it before JSON logs existed.
 */
export function textLine(level: Exclude<LogLevel, 'silent'>, msg: string, fields: LogFields | undefined, reqId: string | undefined, err?: unknown): string {
  const req = reqId ? ` [${reqId}]` : '';
  let extra = '';
  if (fields) for (const k in fields) extra += ` ${k}=${show(fields[k])}`;
  const detail = err === undefined ? '' : ` — ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
  return `${new Date().toISOString()} ${level.padEnd(5)}${req} ${msg}${extra}${detail}\n`;
}

/** Readable text, formatted directly (no JSON in between). */
function textLogger(level: LogLevel): Logger {
  const min = LEVEL_NUMBERS[level];
  const out = sharedStdout();
  const line = (l: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields, err?: unknown) => {
    if (LEVEL_NUMBERS[l] < min) return;
    out.write(textLine(l, msg, fields, currentRequest()?.id, err));
  };
  return {
    debug: (msg, fields) => line('debug', msg, fields),
    info: (msg, fields) => line('info', msg, fields),
    warn: (msg, fields) => line('warn', msg, fields),
    error: (msg, err) => line('error', msg, undefined, err),
  };
}

/**
 * The server's logger: readable text by default; under LOG_FORMAT=json pino, one JSON object per
 * line (`level`, `time`, `msg`, …). A line written while a request is handled carries its id
 * (`reqId`), wherever in the code it was written.
 */
export function createLogger(level: LogLevel, format: LogFormat = 'text'): Logger {
  if (format === 'text') return textLogger(level);
  const base: Pino = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const req = currentRequest();
        return req ? { reqId: req.id } : {};
      },
    },
    sharedStdout(),
  );
  return {
    debug: (msg, fields) => base.debug(fields ?? {}, msg),
    info: (msg, fields) => base.info(fields ?? {}, msg),
    warn: (msg, fields) => base.warn(fields ?? {}, msg),
    error: (msg, err) => {
      if (err === undefined) return base.error(msg);
      base.error({ err: err instanceof Error ? err : String(err) }, msg);
    },
  };
}
