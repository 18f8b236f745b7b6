/** A tiny leveled logger; never pass secrets to it. */
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof levels;

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, err?: unknown): void;
}

export function createLogger(level: LogLevel): Logger {
  const on = (l: LogLevel) => levels[l] >= levels[level];
  const stamp = () => new Date().toISOString();
  return {
    debug: (m) => on('debug') && console.log(`${stamp()} debug ${m}`),
    info: (m) => on('info') && console.log(`${stamp()} info  ${m}`),
    warn: (m) => on('warn') && console.warn(`${stamp()} warn  ${m}`),
    error: (m, err) => {
      if (!on('error')) return;
      const detail = err instanceof Error ? ` — ${err.stack ?? err.message}` : err ? ` — ${String(err)}` : '';
      console.error(`${stamp()} error ${m}${detail}`);
    },
  };
}
