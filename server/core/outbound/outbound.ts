import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one way the server calls out (alert channels today; integrations and reports next), so a URL
 * a person typed cannot be turned against us or the network we run in: https, or plain http only
 * to a host:port listed in OUTBOUND_ALLOWED_HOSTS; no loopback, private, link-local, unique-local or
 * other non-public address, in any spelling (ipaddr.js classifies them), unless its host:port is
 * listed — checked when saved and again, after DNS resolution, when sending (the connection goes to
 * the address checked, so a second lookup cannot swap it); no redirects followed; at most 64 KB of
 * the answer read; 10 s. The allow-list is a parameter of each call (the configuration's, and what
 * an admin adds at run time).
 */

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_ANSWER_BYTES = 64 * 1024;

/** Why an outbound address is refused, in words for the person who typed it. */
export class OutboundRefused extends Error {}

/**
 * Why an IP address is not public, in ipaddr.js's words for its range ("loopback", "private",
 * "linkLocal", "uniqueLocal", "unspecified", "carrierGradeNat", "reserved"…), or null when it is a
 * public unicast address. Every IPv6 spelling of an IPv4 address is judged as that IPv4 address:
 * IPv4-mapped (`::ffff:7f00:1`, however written), IPv4-translated (`::ffff:0:7f00:1`), NAT64
 * (`64:ff9b::7f00:1`) and 6to4 (`2002:7f00:1::`). IPv4-compatible addresses (`::7f00:1`, deprecated
 * since 2006), Teredo tunnels (their IPv4 is hidden) and local-use NAT64 are never public.
 */
export function internalRange(address: string): string | null {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text) || text.includes('%')) return 'not an IP address';
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return rangeOfIPv4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const parts = v6.parts;
  const ipv4At = (hi: number, lo: number) => rangeOfIPv4(new ipaddr.IPv4([parts[hi] >> 8, parts[hi] & 0xff, parts[lo] >> 8, parts[lo] & 0xff]));
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4At(6, 7);
    case 'rfc6052':
      // The well-known prefix 64:ff9b::/96 carries the IPv4 address last; the local-use 64:ff9b:1::/48 is a network's own.
      return parts[2] === 0 && parts[3] === 0 && parts[4] === 0 && parts[5] === 0 ? ipv4At(6, 7) : 'rfc6052 (local-use NAT64)';
    case '6to4':
      return ipv4At(1, 2);
    case 'unicast':
      // ::a.b.c.d, the IPv4-compatible form: ipaddr.js leaves it in unicast.
      return parts.slice(0, 6).every((p) => p === 0) ? 'ipv4Compatible' : null;
    default:
      return range;
  }
}

const rangeOfIPv4 = (ip: ipaddr.IPv4): string | null => (ip.range() === 'unicast' ? null : ip.range());

/** Whether an IP address lies in a loopback, private, link-local, unique-local or otherwise non-public range (any spelling). */
export const isInternalAddress = (address: string): boolean => internalRange(address) !== null;

/** Host names that are this machine whatever DNS says (RFC 6761 `localhost` and Debian's /etc/hosts names). */
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;

const hostPortOf = (u: URL) => `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`.toLowerCase();
/** The host without IPv6 brackets or a trailing dot (`localhost.` is localhost). */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');

/** Checks a channel URL as typed (no DNS): throws OutboundRefused naming the rule it breaks. Returns the parsed URL. */
export function checkOutboundUrl(raw: string, allowed: readonly string[]): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new OutboundRefused('must be a full https:// address');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new OutboundRefused(`must start with https:// (got ${u.protocol}//)`);
  if (u.username || u.password) throw new OutboundRefused('must not contain a user name or password');
  const listed = allowed.includes(hostPortOf(u));
  if (u.protocol === 'http:' && !listed) throw new OutboundRefused(`must use https:// (plain http only to a host:port listed in the server's OUTBOUND_ALLOWED_HOSTS, and ${u.host} is not)`);
  const host = bare(u.hostname);
  const range = LOCAL_NAMES.test(host) ? 'loopback' : ipaddr.isValid(host) ? internalRange(host) : null;
  if (!listed && range) {
    throw new OutboundRefused(`points at a loopback, private, link-local or otherwise non-public address (${u.host}: ${range}), which is refused unless listed in OUTBOUND_ALLOWED_HOSTS`);
  }
  return u;
}

/** The address a URL's host resolves to, once checked (listed hosts: any address). */
async function resolveChecked(u: URL, allowed: readonly string[]): Promise<{ address: string; family: number }> {
  const host = bare(u.hostname);
  const listed = allowed.includes(hostPortOf(u));
  const found = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true }).catch(() => []);
  if (!found.length) throw new OutboundRefused(`host ${u.hostname} could not be resolved`);
  // Every address must pass: a name that also resolves inside could be steered there.
  const inside = listed ? undefined : found.map((a) => internalRange(a.address)).find((r) => r !== null);
  if (inside) throw new OutboundRefused(`host ${u.hostname} resolves to a loopback, private, link-local or otherwise non-public address (${inside}), which is refused unless listed in OUTBOUND_ALLOWED_HOSTS`);
  return found[0];
}

/** A receiver's answer: its status and up to 64 KB of its body. */
export interface OutboundAnswer {
  status: number;
  body: string;
}

/**
 * POSTs a body to a checked URL. Resolves with the answer (any status: the caller decides what a
 * 3xx or 5xx means); rejects with OutboundRefused for a refused address, or an Error for a network
 * failure or the timeout.
 */
export async function postOutbound(raw: string, body: string, headers: Record<string, string>, allowed: readonly string[]): Promise<OutboundAnswer> {
  const u = checkOutboundUrl(raw, allowed);
  const target = await resolveChecked(u, allowed);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const req = client.request(
      u,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'LiveDash-Alerts/1', ...headers },
        // The connection goes to the address that was checked, whatever a second lookup would say.
        lookup: (_host, opts, cb) => {
          if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [target]);
          else cb(null, target.address, target.family);
        },
        timeout: OUTBOUND_TIMEOUT_MS,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        res.on('data', (c: Buffer) => {
          if (size >= OUTBOUND_MAX_ANSWER_BYTES) return;
          const part = c.subarray(0, OUTBOUND_MAX_ANSWER_BYTES - size);
          chunks.push(part);
          size += part.length;
          // Enough read: the rest of a large answer is not waited for.
          if (size >= OUTBOUND_MAX_ANSWER_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', () => done());
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${OUTBOUND_TIMEOUT_MS / 1000} s`)), OUTBOUND_TIMEOUT_MS);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${OUTBOUND_TIMEOUT_MS / 1000} s`)));
    req.on('error', (e) => reject(e));
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
