import crypto from 'node:crypto';
import http from 'node:http';
import { SimData, type SimDataOptions } from './data';
import { cursorExport, ExportError, timeExport } from './exports';
import { consentPage, errorPage } from './oauthPages';

/** An OAuth client registered in the simulated account. */
export interface SimClient {
  clientId: string;
  clientSecret: string;
  /** When set, the authorization request's redirect_uri must be one of these. */
  redirectUris?: string[];
}

export interface SimulatorOptions extends SimDataOptions {
  port?: number;
  host?: string;
  clients?: SimClient[];
  /** Items per export page (Zendesk: up to 1000). */
  perPage?: number;
  codeTtlSeconds?: number;
  account?: string;
  log?: (line: string) => void;
}

export interface ZendeskSimulator {
  url: string;
  port: number;
  data: SimData;
  /** The next `count` data requests answer 429 with `Retry-After: retryAfter`. */
  rateLimitNext(count: number, retryAfter?: number): void;
  /** The next `count` data requests whose path contains `pathPart` answer `status`. */
  failNext(count: number, opts?: { status?: number; pathPart?: string }): void;
  /** How many data requests were answered, per path. */
  requests: Map<string, number>;
  issuedTokens(): number;
  /** Every access token stops working (refresh tokens still do): as when tokens expire. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

interface Code {
  clientId: string;
  redirectUri: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

export const DEFAULT_SIM_CLIENT: SimClient = { clientId: 'livedash', clientSecret: 'sim-secret-change-me' };

async function readBody(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  if ((req.headers['content-type'] ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v ?? '')]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/** Starts a Zendesk simulator: OAuth, incremental exports, ticket fields, custom statuses. */
export async function startZendeskSimulator(opts: SimulatorOptions = {}): Promise<ZendeskSimulator> {
  const data = new SimData(opts);
  const clients = opts.clients ?? [DEFAULT_SIM_CLIENT];
  const perPage = opts.perPage ?? 1000;
  const codeTtl = (opts.codeTtlSeconds ?? 120) * 1000;
  const codes = new Map<string, Code>();
  const tokens = new Map<string, { clientId: string; scope: string }>();
  const refreshTokens = new Map<string, { clientId: string; scope: string }>();
  const requests = new Map<string, number>();
  let rateLimited = { count: 0, retryAfter: 1 };
  let failing = { count: 0, status: 500, pathPart: '' };
  let baseUrl = '';

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const isHtml = typeof body === 'string';
    res.writeHead(status, { 'content-type': isHtml ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8', ...headers });
    res.end(isHtml ? body : JSON.stringify(body));
  };
  const redirect = (res: http.ServerResponse, to: string) => {
    res.writeHead(302, { location: to });
    res.end();
  };

  function authorizePage(q: URLSearchParams, res: http.ServerResponse) {
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    const client = clients.find((c) => c.clientId === clientId);
    if (q.get('response_type') !== 'code') return send(res, 400, errorPage('Invalid request', 'response_type must be code'));
    if (!client) return send(res, 400, errorPage('Invalid client', `No OAuth client with the identifier "${clientId}"`));
    if (!/^https?:\/\//.test(redirectUri) || (client.redirectUris && !client.redirectUris.includes(redirectUri))) {
      return send(res, 400, errorPage('Invalid redirect URI', 'The redirect_uri is not registered for this client'));
    }
    send(res, 200, consentPage({ clientId, redirectUri, scope: q.get('scope') || 'read', state: q.get('state') ?? '', account: opts.account ?? 'Simulated Support' }));
  }

  async function decide(req: http.IncomingMessage, res: http.ServerResponse) {
    const form = await readBody(req);
    const client = clients.find((c) => c.clientId === form.client_id);
    const redirectUri = form.redirect_uri ?? '';
    if (!client || !/^https?:\/\//.test(redirectUri)) return send(res, 400, errorPage('Invalid request', 'Unknown client or redirect URI'));
    const back = new URL(redirectUri);
    if (form.state) back.searchParams.set('state', form.state);
    if (form.decision !== 'allow') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The end-user or authorization server denied the request.');
      return redirect(res, back.toString());
    }
    const code = crypto.randomBytes(24).toString('hex');
    codes.set(code, { clientId: client.clientId, redirectUri, scope: form.scope || 'read', expiresAt: Date.now() + codeTtl, used: false });
    back.searchParams.set('code', code);
    redirect(res, back.toString());
  }

  async function token(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readBody(req);
    const client = clients.find((c) => c.clientId === body.client_id);
    if (!client || client.clientSecret !== body.client_secret) {
      return send(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.' });
    }
    const issue = (scope: string) => {
      const accessToken = crypto.randomBytes(32).toString('hex');
      const refreshToken = crypto.randomBytes(32).toString('hex');
      tokens.set(accessToken, { clientId: client.clientId, scope });
      refreshTokens.set(refreshToken, { clientId: client.clientId, scope });
      send(res, 200, { access_token: accessToken, token_type: 'bearer', scope, refresh_token: refreshToken, expires_in: 172_800, refresh_token_expires_in: 2_592_000 });
    };
    if (body.grant_type === 'refresh_token') {
      const rt = refreshTokens.get(body.refresh_token ?? '');
      if (!rt || rt.clientId !== client.clientId) return send(res, 400, { error: 'invalid_grant', error_description: 'The refresh token is invalid.' });
      refreshTokens.delete(body.refresh_token);
      return issue(rt.scope);
    }
    if (body.grant_type !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type', error_description: 'grant_type must be authorization_code or refresh_token' });
    const code = codes.get(body.code ?? '');
    const invalid = (why: string) => send(res, 400, { error: 'invalid_grant', error_description: `The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client. (${why})` });
    if (!code) return invalid('unknown code');
    if (code.used) return invalid('code already used');
    code.used = true;
    if (code.expiresAt < Date.now()) return invalid('code expired');
    if (code.clientId !== client.clientId) return invalid('code issued to another client');
    if (code.redirectUri !== body.redirect_uri) return invalid('redirect_uri mismatch');
    issue(code.scope);
  }

  function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const auth = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!auth || !tokens.has(auth[1].trim())) return send(res, 401, { error: "Couldn't authenticate you" });
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    if (rateLimited.count > 0) {
      rateLimited.count--;
      return send(res, 429, { error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' }, { 'retry-after': String(rateLimited.retryAfter) });
    }
    if (failing.count > 0 && url.pathname.includes(failing.pathPart)) {
      failing.count--;
      return send(res, failing.status, { error: 'InternalError', description: 'Simulated failure' });
    }
    const q = url.searchParams;
    switch (url.pathname) {
      case '/api/v2/ticket_fields.json':
        return send(res, 200, { ticket_fields: data.ticketFields, next_page: null, previous_page: null, count: data.ticketFields.length });
      case '/api/v2/custom_statuses.json':
        return send(res, 200, { custom_statuses: data.customStatuses });
      case '/api/v2/incremental/tickets/cursor.json':
        return send(res, 200, cursorExport(data.tickets.values(), q, perPage, baseUrl, url.pathname, 'tickets'));
      case '/api/v2/incremental/users/cursor.json':
        return send(res, 200, cursorExport(data.users.values(), q, perPage, baseUrl, url.pathname, 'users'));
      case '/api/v2/incremental/organizations.json':
        return send(res, 200, timeExport(data.organizations.values(), q, perPage, baseUrl, url.pathname, 'organizations'));
      default:
        return send(res, 404, { error: 'InvalidEndpoint', description: 'Not found' });
    }
  }

  /** Test and demo switches, reachable over HTTP for the standalone simulator. */
  async function control(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const body = req.method === 'POST' ? await readBody(req) : {};
    const n = (k: string, d: number) => (body[k] !== undefined && body[k] !== '' ? Number(body[k]) : d);
    if (url.pathname === '/__sim/rate-limit') rateLimited = { count: n('count', 1), retryAfter: n('retryAfter', 1) };
    else if (url.pathname === '/__sim/fail') failing = { count: n('count', 1), status: n('status', 500), pathPart: body.pathPart ?? '' };
    else if (url.pathname === '/__sim/expire-tokens') tokens.clear();
    else if (url.pathname === '/__sim/churn') return send(res, 200, data.churn({ create: n('create', 3), update: n('update', 3), remove: n('remove', 1) }));
    else if (url.pathname !== '/__sim/state') return send(res, 404, { error: 'not found' });
    const tickets = [...data.tickets.values()];
    send(res, 200, {
      tickets: tickets.length, deletedTickets: tickets.filter((t) => t.status === 'deleted').length, users: data.users.size,
      organizations: data.organizations.size, rateLimited, failing,
    });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', baseUrl || 'http://localhost');
    const route = async () => {
      if (req.method === 'GET' && url.pathname === '/oauth/authorizations/new') return authorizePage(url.searchParams, res);
      if (req.method === 'POST' && url.pathname === '/oauth/authorizations') return decide(req, res);
      if (req.method === 'POST' && url.pathname === '/oauth/tokens') return token(req, res);
      if (url.pathname.startsWith('/__sim/')) return control(req, res, url);
      if (req.method === 'GET' && url.pathname.startsWith('/api/v2/')) return api(req, res, url);
      if (url.pathname === '/') return send(res, 200, errorPage('Zendesk simulator', `Serving ${data.tickets.size} tickets. OAuth client id: ${clients[0]?.clientId}`));
      send(res, 404, { error: 'InvalidEndpoint', description: 'Not found' });
    };
    route().catch((e: unknown) => {
      if (e instanceof ExportError) return send(res, e.status, e.body);
      opts.log?.(`simulator error: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) send(res, 500, { error: 'InternalError' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  baseUrl = `http://${opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1'}:${port}`;
  return {
    url: baseUrl,
    port,
    data,
    requests,
    rateLimitNext: (count, retryAfter = 1) => {
      rateLimited = { count, retryAfter };
    },
    failNext: (count, o = {}) => {
      failing = { count, status: o.status ?? 500, pathPart: o.pathPart ?? '' };
    },
    issuedTokens: () => tokens.size,
    expireAccessTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
