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

const LEVEL_NAMES: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Keys a text line shows in its own place, not as `key=value`. */
const FRAME = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err', 'reqId']);

const show = (v: unknown) => {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
};

/**
 * One pino line as readable text: `time level [request id] message key=value…`, an error's stack
 * after a dash — the terminal's format, as the server printed it before JSON logs existed.
 */
export function textLine(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = (LEVEL_NAMES[o.level as number] ?? String(o.level)).padEnd(5);
  const time = typeof o.time === 'number' ? new Date(o.time).toISOString() : String(o.time);
  const req = o.reqId ? ` [${String(o.reqId)}]` : '';
  const extra = Object.entries(o).filter(([k]) => !FRAME.has(k)).map(([k, v]) => ` ${k}=${show(v)}`).join('');
  const err = o.err as { stack?: string; message?: string } | string | undefined;
  const detail = err === undefined ? '' : ` — ${typeof err === 'string' ? err : (err.stack ?? err.message ?? JSON.stringify(err))}`;
  return `${time} ${level}${req} ${String(o.msg ?? '')}${extra}${detail}\n`;
}

/** A stream that writes pino's lines to stdout, as text or JSON. */
function destination(format: LogFormat): { write(line: string): void } {
  if (format === 'json') return pino.destination({ dest: 1, sync: true });
  return { write: (line) => void process.stdout.write(textLine(line)) };
}

/**
 * The server's logger: pino, one JSON object per line under LOG_FORMAT=json (`level`, `time`,
 * `msg`, …), readable text otherwise. A line written while a request is handled carries its id
 * (`reqId`), wherever in the code it was written.
 */
export function createLogger(level: LogLevel, format: LogFormat = 'text'): Logger {
  const base: Pino = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: format === 'json' ? pino.stdTimeFunctions.isoTime : pino.stdTimeFunctions.epochTime,
      formatters: { level: (label, number) => (format === 'json' ? { level: label } : { level: number }) },
      mixin: () => {
        const req = currentRequest();
        return req ? { reqId: req.id } : {};
      },
    },
    destination(format),
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
