import crypto from 'node:crypto';
import type { Context } from 'koa';
import { OAUTH_COMPLETE, type OAuthCompleteMessage } from '@common/schemas/integration';
import { OAUTH_POPUP } from '@common/constants';
import { OutboundFailed, OutboundRefused, requestOutbound, type AppContext, type OutboundResponse } from '../../core';

export const CALLBACK_PATH = '/api/integrations/zendesk/callback';
/** How long an authorization may take between "Authorize" and the callback. */
export const STATE_TTL_MS = 10 * 60_000;

export const hashState = (state: string) => crypto.createHash('sha256').update(state).digest('hex');
export const newState = () => crypto.randomBytes(32).toString('base64url');

/** The server's own origin: PUBLIC_URL, or the origin the request came to. */
export function serverOrigin(app: AppContext, c: Context): string {
  return app.config.PUBLIC_URL ? new URL(app.config.PUBLIC_URL).origin : `${c.protocol}://${c.host}`;
}

export function defaultRedirectUri(app: AppContext, c: Context): string {
  return `${serverOrigin(app, c)}${CALLBACK_PATH}`;
}

/** Zendesk's authorization page for the code grant. */
export function buildAuthUrl(p: { hostUrl: string; clientId: string; redirectUri: string; scope: string; state: string }): string {
  const u = new URL('/oauth/authorizations/new', p.hostUrl);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', p.clientId);
  u.searchParams.set('redirect_uri', p.redirectUri);
  u.searchParams.set('scope', p.scope);
  u.searchParams.set('state', p.state);
  return u.toString();
}

export interface TokenAnswer {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/**
 * POST /oauth/tokens with grant_type=authorization_code (or refresh_token), through the one way out
 * (`allowed`: zendeskHosts). Errors never carry secrets.
 */
export async function requestToken(
  hostUrl: string,
  allowed: readonly string[],
  body: { grant_type: 'authorization_code' | 'refresh_token'; client_id: string; client_secret: string; code?: string; redirect_uri?: string; scope?: string; refresh_token?: string },
): Promise<TokenAnswer> {
  let res: OutboundResponse;
  try {
    res = await requestOutbound({
      method: 'POST', url: new URL('/oauth/tokens', hostUrl).href, headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body), allowed, timeoutMs: 30_000, maxBytes: 64 * 1024,
    });
  } catch (e) {
    if (!(e instanceof OutboundFailed || e instanceof OutboundRefused)) throw e;
    throw new Error(`Could not reach ${new URL(hostUrl).host}: ${e.message}`, { cause: e });
  }
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    // not JSON: the status speaks
  }
  const ok = res.status >= 200 && res.status < 300;
  if (!ok || typeof json.access_token !== 'string') {
    const reason = typeof json.error === 'string' ? json.error : `HTTP ${res.status}`;
    const hint = reason === 'invalid_client' ? ' (check the client ID and secret)' : reason === 'invalid_grant' ? ' (the code expired, was used already or the redirect URI differs)' : '';
    throw new Error(`Token exchange failed: ${reason}${hint}`);
  }
  const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : null;
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : null,
    expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
  };
}

/**
 * The page the popup lands on: it tells the opener (only on our own origin) and then, after
 * 1.5 s, goes to the console with the result in the query (the console opens Integrations with it). Its one inline script
 * carries the response's CSP nonce.
 */
export function callbackPage(origin: string, result: { success: boolean; error: string | null; integrationId: string | null }, cspNonce: string): string {
  const msg: OAuthCompleteMessage = { type: OAUTH_COMPLETE, ...result };
  const q = new URLSearchParams({ oauth: result.success ? 'success' : 'error', provider: 'zendesk', integrationId: result.integrationId ?? '' });
  if (result.error) q.set('error', result.error);
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028|\u2029/g, '');
  const text = result.success ? 'Zendesk is connected. You can close this window.' : `Zendesk authorization failed: ${result.error ?? 'Unknown error'}`;
  const safe = text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Zendesk authorization</title></head>
<body style="font-family:system-ui,sans-serif;padding:40px"><p id="result">${safe}</p>
<script nonce="${cspNonce}">
(function () {
  var msg = ${json(msg)};
  try { if (window.opener) window.opener.postMessage(msg, ${json(origin)}); } catch (e) {}
  setTimeout(function () { window.location.replace(${json(`/admin?${q.toString()}`)}); }, ${OAUTH_POPUP.redirectDelayMs});
})();
</script></body></html>`;
}
