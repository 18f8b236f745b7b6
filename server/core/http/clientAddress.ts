import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import type { Config } from '../config';

type ProxySettings = Pick<Config, 'TRUST_PROXY' | 'TRUST_PROXY_HOPS'>;

/** The headers a proxy sets for the client: read only from a trusted proxy (else a client could set them). */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

/** Whether a connection's X-Forwarded-* headers count: its peer is a trusted proxy (TRUST_PROXY). */
export const fromTrustedProxy = (peer: string | undefined, settings: Pick<Config, 'TRUST_PROXY'>): boolean => settings.TRUST_PROXY.trusts(peer);

/**
 * The client's address, for everything that keys on it (rate limits, the Socket.IO handshake, the
 * activity log). It is the socket's peer, unless that peer is a trusted proxy (TRUST_PROXY):
 * - with a list of the proxies' addresses, X-Forwarded-For is walked from the right past every
 *   trusted proxy; the first address that is not one is the client (entries left of it are
 *   whatever the client sent, and are never read);
 * - with `true` (any peer), it is the TRUST_PROXY_HOPS-th entry from the right.
 * An entry that is not an IP address is no address: the peer's is used instead.
 */
export function clientAddress(headers: IncomingHttpHeaders, peer: string | undefined, settings: ProxySettings): string {
  const fallback = peer ?? '';
  const trust = settings.TRUST_PROXY;
  if (!trust.trusts(peer)) return fallback;
  const raw = headers['x-forwarded-for'];
  const hops = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((h) => h.trim()).filter(Boolean);
  if (!hops.length) return fallback;
  if (trust.mode === 'any') {
    const appended = hops[Math.max(0, hops.length - settings.TRUST_PROXY_HOPS)];
    return isIP(appended) ? appended : fallback;
  }
  let client = fallback;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) return fallback;
    client = hops[i];
    if (!trust.trusts(client)) return client;
  }
  return client;
}

/**
 * Sets `ctx.ip` (read by the guards and the activity log) to the client's address; a request whose
 * peer is not a trusted proxy loses its X-Forwarded-* headers first, so nothing after (Koa's
 * protocol and host, the cross-site check) reads what a client wrote there.
 */
export function clientAddressOf(settings: ProxySettings): Middleware {
  return (ctx, next) => {
    const peer = ctx.req.socket.remoteAddress;
    ctx.request.ip = clientAddress(ctx.req.headers, peer, settings);
    if (!fromTrustedProxy(peer, settings)) for (const h of FORWARDED_HEADERS) delete ctx.req.headers[h];
    return next();
  };
}
