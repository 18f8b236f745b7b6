import { BadRequestError, OutboundRefused, ValidationError, checkOutboundUrl } from '../../core';
import { allowedHosts, type IntegrationsRuntime } from '../runtime';
import type { OAuthState } from './models';

/**
 * Integration secrets stay bound to their host: a Host URL is https:// (plain http only for the
 * hosts listed in ZENDESK_HTTP_HOSTS), tokens remember the origin that issued them, and no access
 * or refresh token is ever sent anywhere else. A Host URL is an outbound address like any other:
 * no internal address in any spelling unless listed (the one rule of core/outbound).
 */

/**
 * The host:port pairs a Zendesk Host URL may name over plain http or at an internal address:
 * ZENDESK_HTTP_HOSTS (the simulator) and the integrations' list (OUTBOUND_ALLOWED_HOSTS).
 */
export const zendeskHosts = (rt: IntegrationsRuntime): readonly string[] => [...rt.app.config.ZENDESK_HTTP_HOSTS, ...allowedHosts(rt)];

export const HOST_URL_EXAMPLE = 'https://acme.zendesk.com';

export const RECONNECT_MESSAGE =
  'This integration must be reconnected: its Zendesk address or client changed since it was authorized. Click "Authorize with Zendesk" again before syncing';

export const NOT_CONNECTED_MESSAGE = 'This integration is not connected: authorize (reconnect) it with Zendesk before syncing';

/** Why a Host URL is refused, in words for the admin. */
export class HostUrlProblem extends Error {}

const hostPort = (u: URL) => `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`.toLowerCase();

/**
 * Normalises what a user typed as Host URL (`acme`, `acme.zendesk.com`, a full URL) to an origin
 * and checks it may carry secrets. Throws HostUrlProblem with a message naming the rule.
 */
export function checkHostUrl(input: string, httpHosts: readonly string[]): string {
  let v = input.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(v)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'https' && scheme !== 'http') throw new HostUrlProblem(`Host URL must start with https:// (got ${scheme}://), e.g. ${HOST_URL_EXAMPLE}`);
  if (!scheme && /^https?:/i.test(v)) throw new HostUrlProblem(`Host URL must be a valid https:// address such as ${HOST_URL_EXAMPLE}`);
  if (!scheme) v = /^[a-z0-9-]+\/*$/i.test(v) ? `https://${v.replace(/\/+$/, '')}.zendesk.com` : `https://${v}`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new HostUrlProblem(`Host URL must be a valid https:// address such as ${HOST_URL_EXAMPLE}`);
  }
  if (!u.hostname) throw new HostUrlProblem(`Host URL must name a host, e.g. ${HOST_URL_EXAMPLE}`);
  if (u.username || u.password) throw new HostUrlProblem('Host URL must not contain a user name or password');
  if (u.protocol === 'http:' && !httpHosts.includes(hostPort(u))) {
    throw new HostUrlProblem(
      `Host URL must use https:// (plain http is allowed only for hosts listed in the server's ZENDESK_HTTP_HOSTS, and ${u.host} is not), e.g. ${HOST_URL_EXAMPLE}`,
    );
  }
  try {
    checkOutboundUrl(u.origin, httpHosts);
  } catch (e) {
    if (e instanceof OutboundRefused) throw new HostUrlProblem(`Host URL ${e.message}`);
    throw e;
  }
  return u.origin;
}

/** checkHostUrl as a 400 of the config endpoint, naming the field. */
export function validHostUrl(input: string, httpHosts: readonly string[]): string {
  try {
    return checkHostUrl(input, httpHosts);
  } catch (e) {
    const message = e instanceof HostUrlProblem ? e.message : `Host URL must be a valid https:// address such as ${HOST_URL_EXAMPLE}`;
    throw ValidationError(`hostUrl: ${message}`, [{ path: 'hostUrl', message }]);
  }
}

const originOf = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The origin the stored tokens may be sent to, or null when they must not be used: no token, a
 * token stored before tokens carried their origin, a Host URL that moved away from the issuer, or
 * a Host URL this server no longer allows.
 */
export function tokenTarget(o: Partial<OAuthState> | null | undefined, httpHosts: readonly string[]): string | null {
  if (!o?.accessToken || !o.tokenOrigin) return null;
  const issuer = originOf(o.tokenOrigin);
  if (!issuer || issuer !== originOf(o.hostUrl)) return null;
  try {
    return checkHostUrl(issuer, httpHosts) === issuer ? issuer : null;
  } catch {
    return null;
  }
}

/** The check before a sync: a 400 that tells the admin to reconnect when the tokens are not usable. */
export function requireTokenTarget(o: Partial<OAuthState> | null | undefined, httpHosts: readonly string[]): string {
  if (!o?.accessToken) throw BadRequestError('not_connected', NOT_CONNECTED_MESSAGE);
  const target = tokenTarget(o, httpHosts);
  if (!target) throw BadRequestError('reconnect_required', RECONNECT_MESSAGE);
  return target;
}

/** The $set that forgets an authorization: tokens, their origin and where the sync resumes. */
export const forgetAuthorization = (): Record<string, unknown> => ({
  status: 'pending',
  'oauth.accessToken': null,
  'oauth.refreshToken': null,
  'oauth.tokenExpiresAt': null,
  'oauth.tokenOrigin': null,
  'config.lastCursor': null,
  cursors: { tickets: null, users: null, organizations: null },
});
