import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import type { Config } from '../config';

type ProxyTrust = Pick<Config, 'TRUST_PROXY' | 'TRUST_PROXY_HOPS'>;

/**
 * The client's address, for everything that keys on it (rate limits, the Socket.IO handshake, the
 * activity log). Without TRUST_PROXY it is the socket's peer. With it, it is the entry of
 * X-Forwarded-For that the trusted proxies appended: the TRUST_PROXY_HOPS-th from the right (the
 * entries left of it are whatever the client sent). A value that is not an IP address is no
 * address: the peer's is used instead.
 */
export function clientAddress(headers: IncomingHttpHeaders, peer: string | undefined, trust: ProxyTrust): string {
  const fallback = peer ?? '';
  if (!trust.TRUST_PROXY) return fallback;
  const raw = headers['x-forwarded-for'];
  const hops = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((h) => h.trim()).filter(Boolean);
  if (!hops.length) return fallback;
  const appended = hops[Math.max(0, hops.length - trust.TRUST_PROXY_HOPS)];
  return isIP(appended) ? appended : fallback;
}

/** Sets `ctx.ip` (read by the guards and the activity log) to the client's address. */
export function clientAddressOf(trust: ProxyTrust): Middleware {
  return (ctx, next) => {
    ctx.request.ip = clientAddress(ctx.req.headers, ctx.req.socket.remoteAddress, trust);
    return next();
  };
}
