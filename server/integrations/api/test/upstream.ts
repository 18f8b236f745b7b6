import http from 'node:http';
import type net from 'node:net';
import zlib from 'node:zlib';

/**
 * A real HTTP JSON API on loopback for the API provider's tests (and the pull bench): one dataset of
 * items served under every pagination style, each auth style, an OAuth 2 token endpoint, and
 * switches for the failures a sync must survive (5xx, hang, not JSON, dropped connection, 429).
 *
 * Routes (all read `since=` for incremental syncs: items with `updated_at` ≥ it):
 * - `/v1/all` — a plain array of every item;
 * - `/v1/next-url?page=` — `{data: {items}, links: {next}}`, `per` items a page;
 * - `/v1/link?page=` — an array, the next page in the `Link` header;
 * - `/v1/cursor?after=` — `{items, meta: {next_cursor}}`;
 * - `/v1/page?page=` — `{results}` (pages from 1, an empty page past the end);
 * - `/v1/offset?offset=&limit=` — `{records}`;
 * - `/oauth/token` — client credentials (Basic or in the body).
 */

export interface Item {
  id: number;
  name: string;
  amount: number;
  updated_at: string;
  [k: string]: unknown;
}

export type Failure = { status: number } | 'drop' | 'hang' | 'not-json';

export interface UpstreamRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Upstream {
  url: string;
  hostPort: string;
  items: Item[];
  per: number;
  requests: UpstreamRequest[];
  /** What a request must carry, checked on every /v1 route (401 otherwise). */
  auth: { header: string; value: string } | { oauth: { clientId: string; clientSecret: string; lifetimeS: number } } | null;
  /** Tokens the OAuth endpoint handed out (a revoked one answers 401). */
  tokens: { token: string; valid: boolean; via: 'basic' | 'body' }[];
  /** The next answer of a route's page (1-based): a failure instead. */
  fail(route: string, page: number, failure: Failure, times?: number): void;
  /** The next `count` /v1 requests answer 429 with this Retry-After (null: no header). */
  rateLimit(count: number, retryAfter: string | null): void;
  /** Answers gzip-compressed from now on. */
  gzip: boolean;
  /** A refused request's answer repeats the credentials it came with (an API that echoes what it got). */
  echoRefused: boolean;
  close(): Promise<void>;
}

/** Items 1..n, updated a minute apart from 2024-01-01. */
export function makeItems(n: number, from = 1): Item[] {
  return Array.from({ length: n }, (_, i) => {
    const id = from + i;
    return { id, name: `Item ${id}`, amount: id * 10, updated_at: new Date(Date.UTC(2024, 0, 1, 0, id)).toISOString() };
  });
}

export async function startUpstream(opts: { items?: number; per?: number } = {}): Promise<Upstream> {
  const failures = new Map<string, { failure: Failure; times: number }>();
  let limited: { count: number; retryAfter: string | null } = { count: 0, retryAfter: null };
  const sockets = new Set<net.Socket>();
  const up: Upstream = {
    url: '',
    hostPort: '',
    items: makeItems(opts.items ?? 25),
    per: opts.per ?? 10,
    requests: [],
    auth: null,
    tokens: [],
    gzip: false,
    echoRefused: false,
    fail: (route, page, failure, times = 1) => failures.set(`${route}#${page}`, { failure, times }),
    rateLimit: (count, retryAfter) => {
      limited = { count, retryAfter };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (up.gzip) {
      res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers });
      return res.end(zlib.gzipSync(text));
    }
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  };

  const authorized = (req: http.IncomingMessage) => {
    const a = up.auth;
    if (!a) return true;
    if ('header' in a) return req.headers[a.header.toLowerCase()] === a.value;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return up.tokens.some((t) => t.valid && t.token === token);
  };

  const tokenEndpoint = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => {
    const a = up.auth && 'oauth' in up.auth ? up.auth.oauth : null;
    const form = new URLSearchParams(body);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
    if (!a || form.get('grant_type') !== 'client_credentials' || id !== a.clientId || secret !== a.clientSecret) return send(res, 401, { error: 'invalid_client' });
    const token = `tok-${up.tokens.length + 1}-${Math.random().toString(36).slice(2)}`;
    up.tokens.push({ token, valid: true, via: basic ? 'basic' : 'body' });
    send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: a.lifetimeS });
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', up.url);
      const body = Buffer.concat(chunks).toString('utf8');
      up.requests.push({ method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body });
      if (u.pathname === '/oauth/token') return tokenEndpoint(req, body, res);
      if (!u.pathname.startsWith('/v1/')) return send(res, 404, { error: 'not found' });
      if (limited.count > 0) {
        limited.count--;
        return send(res, 429, { error: 'slow down' }, limited.retryAfter === null ? {} : { 'retry-after': limited.retryAfter });
      }
      if (!authorized(req)) {
        const echo = up.echoRefused ? { message: `refused ${JSON.stringify(req.headers)} ${req.url}` } : {};
        return send(res, 401, { error: 'unauthorized', ...echo });
      }
      const route = u.pathname.slice(4);
      const q = u.searchParams;
      const since = q.get('since');
      const items = since ? up.items.filter((i) => i.updated_at >= since) : up.items;
      const per = up.per;
      const page = Number(q.get('page') ?? 1);
      const pageNo = route === 'cursor' ? Number(q.get('after') ?? 0) / per + 1 : route === 'offset' ? Number(q.get('offset') ?? 0) / Number(q.get('limit') ?? per) + 1 : page;
      const planned = failures.get(`${route}#${pageNo}`);
      if (planned && planned.times > 0) {
        planned.times--;
        const f = planned.failure;
        if (f === 'hang') return; // never answers
        if (f === 'drop') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          res.write('{"data": {"items": [');
          return setTimeout(() => res.socket?.destroy(), 20);
        }
        if (f === 'not-json') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<!doctype html><title>Maintenance</title>');
        }
        return send(res, f.status, { error: 'upstream trouble' });
      }
      const slice = (start: number, n: number) => items.slice(start, start + n);
      const self = (params: Record<string, string | number>) => {
        const next = new URL(u.pathname, up.url);
        for (const [k, v] of u.searchParams) next.searchParams.set(k, v);
        for (const [k, v] of Object.entries(params)) next.searchParams.set(k, String(v));
        return next.toString();
      };
      if (route === 'all') return send(res, 200, items);
      if (route === 'next-url') {
        const more = page * per < items.length;
        return send(res, 200, { data: { items: slice((page - 1) * per, per) }, links: { next: more ? self({ page: page + 1 }) : null } });
      }
      if (route === 'link') {
        const more = page * per < items.length;
        const link: Record<string, string> = more ? { link: `<${self({ page: page + 1 })}>; rel="next", <${self({ page: 1 })}>; rel="first"` } : {};
        return send(res, 200, slice((page - 1) * per, per), link);
      }
      if (route === 'cursor') {
        const after = Number(q.get('after') ?? 0);
        const more = after + per < items.length;
        return send(res, 200, { items: slice(after, per), meta: { next_cursor: more ? String(after + per) : null } });
      }
      if (route === 'page') return send(res, 200, { results: slice((page - 1) * per, per) });
      if (route === 'offset') return send(res, 200, { records: slice(Number(q.get('offset') ?? 0), Number(q.get('limit') ?? per)) });
      if (route === 'not-array') return send(res, 200, { data: { items: { id: 1 } } });
      send(res, 404, { error: `no route ${route}` });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  up.url = `http://127.0.0.1:${port}`;
  up.hostPort = `127.0.0.1:${port}`;
  return up;
}
