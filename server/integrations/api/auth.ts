import crypto from 'node:crypto';
import type { ApiConfig } from '@common/schemas/integrations/api';
import { OutboundFailed, OutboundRefused, requestOutbound } from '../../core';
import { UpstreamProblem, type PullContext } from '../provider';

/**
 * The auth header of each request: bearer, basic, a named header, or an OAuth 2 client-credentials
 * token — fetched from the token URL, kept in the integration's memory until it expires, and
 * fetched again when the API answers 401.
 */

export interface Authorizer {
  headers(): Promise<Record<string, string>>;
  /** Forgets a token the API refused; answers whether a new one can be fetched (once). */
  refused(): boolean;
  /** The token fetched for this integration (a secret too), if any. */
  token(): string | null;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

export const where = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return 'the URL';
  }
};

/** Ten seconds of slack: a token about to expire is not sent. */
const SLACK_MS = 10_000;
const DEFAULT_LIFETIME_S = 3600;

export function authorizer(config: ApiConfig, ctx: PullContext): Authorizer {
  const auth = config.auth;
  if (!auth) return { headers: async () => ({}), refused: () => false, token: () => null };
  if (auth.type === 'bearer') return fixed({ authorization: `Bearer ${auth.token}` });
  if (auth.type === 'basic') return fixed({ authorization: basic(auth.username, auth.password) });
  if (auth.type === 'header') return fixed({ [auth.name]: auth.value });
  // The key changes with anything that makes another token: a config change never reuses an old one.
  const key = `oauth2:${crypto.createHash('sha256').update(JSON.stringify([auth.tokenUrl, auth.clientId, auth.clientSecret, auth.scope ?? ''])).digest('hex')}`;
  let retried = false;
  return {
    async headers() {
      let token = ctx.memory.get<string>(key);
      if (!token) {
        const got = await fetchToken(auth, ctx);
        ctx.memory.set(key, got.token, Math.max(1000, got.lifetimeS * 1000 - SLACK_MS));
        token = got.token;
      }
      return { authorization: `Bearer ${token}` };
    },
    token: () => ctx.memory.get<string>(key) ?? null,
    refused() {
      ctx.memory.delete(key);
      if (retried) return false;
      retried = true;
      return true;
    },
  };
}

const fixed = (headers: Record<string, string>): Authorizer => ({ headers: async () => headers, refused: () => false, token: () => null });

type OAuth2 = Extract<NonNullable<ApiConfig['auth']>, { type: 'oauth2' }>;

/**
 * The client-credentials grant (RFC 6749 4.4): the client authenticates with HTTP Basic first; a
 * server that refuses it as invalid_client is asked once more with the credentials in the body.
 */
async function fetchToken(auth: OAuth2, ctx: PullContext): Promise<{ token: string; lifetimeS: number }> {
  const at = where(auth.tokenUrl);
  const ask = async (inBody: boolean) => {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scope) form.set('scope', auth.scope);
    if (inBody) {
      form.set('client_id', auth.clientId);
      form.set('client_secret', auth.clientSecret);
    }
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (!inBody) headers.authorization = basic(encodeURIComponent(auth.clientId), encodeURIComponent(auth.clientSecret));
    try {
      return await requestOutbound({
        method: 'POST', url: auth.tokenUrl, headers, body: form.toString(), allowed: ctx.allowedHosts,
        maxBytes: 256 * 1024, timeoutMs: ctx.limits.requestTimeoutMs, signal: ctx.signal,
      });
    } catch (e) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (e instanceof OutboundRefused || e instanceof OutboundFailed) throw new UpstreamProblem(`the token URL ${at}: ${e.message}`);
      throw e;
    }
  };
  let res = await ask(false);
  let answer = parse(res.body);
  if ((res.status === 400 || res.status === 401) && answer?.error === 'invalid_client') {
    res = await ask(true);
    answer = parse(res.body);
  }
  if (res.status < 200 || res.status >= 300 || typeof answer?.access_token !== 'string' || !answer.access_token) {
    const reason = typeof answer?.error === 'string' ? ` (${answer.error.slice(0, 100)})` : '';
    const hint = answer?.error === 'invalid_client' ? ': check the client ID and secret' : answer?.error === 'invalid_scope' ? ': check the scope' : '';
    const what = res.status >= 200 && res.status < 300 ? 'answered no access_token' : `answered HTTP ${res.status}`;
    throw new UpstreamProblem(`the token URL ${at} ${what}${reason}${hint}`);
  }
  const lifetime = Number(answer.expires_in);
  return { token: answer.access_token, lifetimeS: Number.isFinite(lifetime) && lifetime > 0 ? lifetime : DEFAULT_LIFETIME_S };
}

function parse(body: Buffer): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
