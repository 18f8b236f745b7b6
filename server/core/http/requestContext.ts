import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';

/** What the server knows about the request being handled, wherever in its code it is. */
export interface RequestInfo {
  /** X-Request-Id: the caller's when sane, else generated; echoed in the answer and on every log line. */
  id: string;
  /** The route's template (`/api/dashboards/:id`), never the path with its ids; set once routed. */
  route?: string;
  /** Who called: kind (admin token, session, API token, ingest key, anonymous) and a non-secret id. */
  caller?: { kind: string; id?: string };
  /** The client's address (behind TRUST_PROXY, the one the proxy appended to X-Forwarded-For). */
  address?: string;
  /** Set while the app's handler runs: an answer cut short (the client hung up) is logged once it ends. */
  handling?: Promise<void>;
}

const store = new AsyncLocalStorage<RequestInfo>();

/** The request being handled here, or undefined (timers, socket events, startup). */
export const currentRequest = (): RequestInfo | undefined => store.getStore();

/** Runs `fn` as part of the request `info` (every log line it causes carries the id). */
export const runInRequest = <T>(info: RequestInfo, fn: () => T): T => store.run(info, fn);

/** A caller's id is kept when it is short and plain (no spaces, quotes or control characters to forge log lines). */
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** This process's part of the ids it makes (random per start), then a counter: unique without a random draw per request. */
const PROCESS_PREFIX = crypto.randomBytes(6).toString('base64url');
let made = 0;

/** The request id: the caller's X-Request-Id when sane, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && SANE_ID.test(given) ? given : `${PROCESS_PREFIX}-${(++made).toString(36)}`;
}

/** Names the route (its template) and, when known, the caller of the request being handled. */
export function routeIs(route: string, caller?: RequestInfo['caller']): void {
  const info = store.getStore();
  if (!info) return;
  info.route = route;
  if (caller) info.caller = caller;
}
