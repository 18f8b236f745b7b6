import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ALLOW_OUTBOUND_WHERE } from './outboundHosts';
import { internalHostRange, internalRange } from './addresses';

/**
 * The one way the server calls out (alert channels today; integrations and reports next), so a URL
 * a person typed cannot be turned against us or the network we run in: https, or plain http only
 * to an allowed host:port (`outboundAllowedHosts`: OUTBOUND_ALLOWED_HOSTS and Settings › Outbound
 * hosts — callers pass that list); no loopback, private, link-local, unique-local or other
 * non-public address, in any spelling (ipaddr.js classifies them: addresses.ts), unless its
 * host:port is listed — checked when saved and again, after DNS resolution, when sending (the
 * connection goes to the address checked, so a second lookup cannot swap it); no redirects
 * followed; at most 64 KB of the answer read; 10 s. The allow-list is a parameter of each call
 * (the configuration's, and what an admin adds at run time). Integrations read larger answers through
 * `requestOutbound` (GET or POST, headers, a bounded answer refused past its cap, same-origin
 * redirects only) and check database hosts with `checkOutboundHost` / `resolveOutboundHost`.
 */

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_ANSWER_BYTES = 64 * 1024;

/** Why an outbound address is refused, in words for the person who typed it; `allowable`: the host:port an admin could allow (Settings › Outbound hosts). */
export class OutboundRefused extends Error {
  constructor(
    message: string,
    readonly allowable: string | null = null,
  ) {
    super(message);
  }
}

/** The end of a refusal an admin can lift, in the words of the console (the web links "Settings › Outbound hosts" for admins). */
const allowIt = (hostPort: string) => `allow ${hostPort} under ${ALLOW_OUTBOUND_WHERE}`;

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
  if (u.protocol === 'http:' && !listed) throw new OutboundRefused(`must use https:// (plain http only to an allowed host:port): ${allowIt(hostPortOf(u))}`, hostPortOf(u));
  const range = listed ? null : internalHostRange(bare(u.hostname));
  if (range) {
    throw new OutboundRefused(`points at a loopback, private, link-local or otherwise non-public address (${u.host}: ${range}), refused unless allowed: ${allowIt(hostPortOf(u))}`, hostPortOf(u));
  }
  return u;
}

/** The address a URL's host resolves to, once checked (listed hosts: any address). */
export async function resolveChecked(u: URL, allowed: readonly string[]): Promise<{ address: string; family: number }> {
  return resolveListedOrPublic(bare(u.hostname), hostPortOf(u), allowed.includes(hostPortOf(u)));
}

async function resolveListedOrPublic(host: string, hostPort: string, listed: boolean): Promise<{ address: string; family: number }> {
  const found = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true }).catch(() => []);
  if (!found.length) throw new OutboundRefused(`host ${host} could not be resolved`);
  // Every address must pass: a name that also resolves inside could be steered there.
  const inside = listed ? undefined : found.map((a) => internalRange(a.address)).find((r) => r !== null);
  if (inside) throw new OutboundRefused(`host ${host} resolves to a loopback, private, link-local or otherwise non-public address (${inside}), refused unless allowed: ${allowIt(hostPort)}`, hostPort);
  return found[0];
}

const hostPortText = (host: string, port: number) => `${net.isIP(host) === 6 ? `[${host}]` : host}:${port}`.toLowerCase();

/**
 * Checks a host and port that are not a URL (a database) as typed, by the URL rule: an internal
 * address (any spelling) only when its host:port is listed. Throws OutboundRefused.
 */
export function checkOutboundHost(hostname: string, port: number, allowed: readonly string[]): void {
  const host = bare(hostname);
  if (!host) throw new OutboundRefused('must name a host');
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new OutboundRefused(`port ${port} is not a port (1–65535)`);
  if (allowed.includes(hostPortText(host, port))) return;
  const range = internalHostRange(host);
  if (range) throw new OutboundRefused(`${hostPortText(host, port)} is a loopback, private, link-local or otherwise non-public address (${range}), refused unless allowed: ${allowIt(hostPortText(host, port))}`, hostPortText(host, port));
}

/** Resolves a checked host and port and checks every address it resolves to; answers the address to connect to (so a second lookup cannot swap it). */
export async function resolveOutboundHost(hostname: string, port: number, allowed: readonly string[]): Promise<{ address: string; family: number }> {
  checkOutboundHost(hostname, port, allowed);
  const host = bare(hostname);
  return resolveListedOrPublic(host, hostPortText(host, port), allowed.includes(hostPortText(host, port)));
}

/** Node's lookup option, answering the address that was checked whatever a second lookup would say. */
export const pinnedLookup = (target: { address: string; family: number }): net.LookupFunction => (_host, opts, cb) => {
  if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [target]);
  else cb(null, target.address, target.family);
};

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
        lookup: pinnedLookup(target),
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
