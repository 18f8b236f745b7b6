import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';

/**
 * Which peers are reverse proxies whose X-Forwarded-* headers count (TRUST_PROXY), as Express's
 * `trust proxy` reads them: `false` (none: the default), a comma-separated list of the proxies'
 * addresses — IPs, CIDRs and the names `loopback`, `linklocal`, `uniquelocal` — or `true` (any peer:
 * only when nothing can reach the processes but the proxies; the server warns at start).
 */
export interface ProxyTrust {
  readonly mode: 'none' | 'any' | 'list';
  /** The list as given (mode `list`). */
  readonly proxies: readonly string[];
  /** Whether an address (a socket's peer, an X-Forwarded-For entry) is one of the trusted proxies. */
  trusts(address: string | undefined): boolean;
}

/** The named ranges, as Express's proxy-addr defines them. */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address as compared: an IPv4 address written as IPv6 (a dual-stack socket's `::ffff:10.0.0.1`) is that IPv4 address. */
function parsed(address: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!address || !ipaddr.isValid(address) || address.includes('%')) return null;
  return ipaddr.process(address);
}

function rangeOf(entry: string): Range | null {
  if (ipaddr.isValidCIDR(entry)) {
    const [ip, bits] = ipaddr.parseCIDR(entry);
    // Addresses are compared as IPv4 when they are (see `parsed`): so is a range of IPv4-mapped ones.
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [ip, bits];
  }
  const ip = parsed(entry);
  // Only a plain dotted IPv4 or an IPv6 address: "10.1" or "0x0a.1" would be read as some other address than meant.
  if (!ip || (ip.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(entry))) return null;
  return [ip, ip.kind() === 'ipv4' ? 32 : 128];
}

const NONE: ProxyTrust = { mode: 'none', proxies: [], trusts: () => false };
const ANY: ProxyTrust = { mode: 'any', proxies: [], trusts: () => true };

/** Reads TRUST_PROXY; throws an Error naming the entry that is no address, CIDR or range name. */
export function parseProxyTrust(value: string): ProxyTrust {
  const v = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(v)) return NONE;
  if (['true', '1', 'yes'].includes(v)) return ANY;
  const proxies = v.split(',').map((e) => e.trim()).filter(Boolean);
  const ranges: Range[] = [];
  for (const entry of proxies) {
    const found = NAMED[entry]?.map((r) => rangeOf(r)!) ?? [rangeOf(entry)];
    if (found.some((r) => r === null)) throw new Error(`"${entry}" is no IP address, CIDR (10.0.0.0/8) or range name (loopback, linklocal, uniquelocal)`);
    ranges.push(...(found as Range[]));
  }
  return {
    mode: 'list',
    proxies,
    trusts(address) {
      const ip = parsed(address);
      return ip !== null && ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
    },
  };
}

/** The configuration's proxy settings (TRUST_PROXY as parsed here, TRUST_PROXY_HOPS). */
type ProxySettings = { TRUST_PROXY: ProxyTrust; TRUST_PROXY_HOPS: number };

/** The headers a proxy sets for the client: read only from a trusted proxy (else a client could set them). */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

/** Whether a connection's X-Forwarded-* headers count: its peer is a trusted proxy (TRUST_PROXY). */
export const fromTrustedProxy = (peer: string | undefined, settings: Pick<ProxySettings, 'TRUST_PROXY'>): boolean => settings.TRUST_PROXY.trusts(peer);

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
