import { startApp, type RunningApp } from '../app';
import { loadConfig } from '../core/config';
import { createLogger, type Logger } from '../core/log';
import { viewCacheOf } from '../publicView/viewCache';
import { TEST_ENGINE } from './engine';
import { accountsHandle } from '../access/accounts/accounts';

export { TEST_ENGINE };

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface HttpAnswer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface TestServer {
  app: RunningApp;
  url: string;
  /** Calls the real server over HTTP; `token: null` sends no credential, default is the admin token. */
  http<T = any>(method: string, path: string, opts?: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> }): Promise<HttpAnswer<T>>;
  /** Removes every document between tests (the offline engine cannot drop databases). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the real server on a free port against a fresh embedded database (optionally with a test's logger). */
export async function startTestServer(env: Record<string, string> = {}, log?: Logger): Promise<TestServer> {
  const fromEnv = process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {};
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN, SEED_DEMO: 'false', LOG_LEVEL: 'error', ...TEST_ENGINE, ...fromEnv, ...env });
  const app = await startApp(config, log ?? createLogger(config.LOG_LEVEL));
  const url = `http://127.0.0.1:${app.port}`;
  return {
    app,
    url,
    async http(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: string | undefined = opts.raw;
      if (opts.body !== undefined) payload = JSON.stringify(opts.body);
      if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const res = await fetch(url + path, { method, headers, body: payload });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON
      }
      return { status: res.status, body: body as any, text, headers: res.headers };
    },
    async reset() {
      await Promise.all(Object.values(app.ctx.conn.models).map((m) => m.deleteMany({})));
      // The documents went without domain events: the view cache must forget them too.
      viewCacheOf(app.ctx).clear();
      accountsHandle.of(app.ctx).clearCache();
    },
    close: () => app.close(),
  };
}

/** A logger that keeps its lines (level, message and the error's stack or text) for a test to read. */
export function capturedLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log: Logger = {
    // The fields too: a secret must not reach the log by any way.
    debug: (m, f) => lines.push(`debug ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
    info: (m, f) => lines.push(`info ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
    warn: (m, f) => lines.push(`warn ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
    error: (m, e) => lines.push(`error ${m}${e instanceof Error ? ` — ${e.stack}` : e ? ` — ${String(e)}` : ''}`),
  };
  return { log, lines };
}
