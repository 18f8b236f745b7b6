import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { formatBytes } from '../http/body';
import { checkOutboundUrl, pinnedLookup, resolveChecked } from './outbound';

/**
 * GET or POST through the one way out, for integrations that read answers larger than an alert
 * receiver's: the same address rule (checked as typed and again after DNS, the connection pinned to
 * the checked address), headers of the caller's choosing, a bounded answer (decompressed size
 * counted; past the cap the call fails instead of returning half a JSON document), one deadline for
 * the whole exchange, and redirects followed only within the same origin.
 */

export const OUTBOUND_READ_TIMEOUT_MS = 30_000;
export const OUTBOUND_READ_MAX_BYTES = 16 * 1024 * 1024;
const REDIRECTS = 3;

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** host:port pairs allowed over plain http or at internal addresses. */
  allowed: readonly string[];
  /** Most bytes of the (decompressed) answer; past it the call fails with `too_large`. */
  maxBytes?: number;
  /** The whole exchange, connection to the answer's last byte. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The address that answered (after same-origin redirects). */
  url: string;
}

/** Why a call failed on the way (not a refused address), in words for a person; `kind` for code. */
export class OutboundFailed extends Error {
  constructor(
    readonly kind: 'timeout' | 'connect' | 'dropped' | 'too_large' | 'redirect' | 'aborted',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends the request; resolves with any status (the caller decides what a 4xx or 5xx means).
 * Rejects with OutboundRefused (the address), OutboundFailed (the way), or the signal's reason.
 */
export async function requestOutbound(req: OutboundRequest): Promise<OutboundResponse> {
  let url = checkOutboundUrl(req.url, req.allowed);
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    const res = await exchange(url, req);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutboundFailed('redirect', `answered ${res.status} with a Location that is not an address`);
    }
    // Headers (credentials among them) are never carried to another origin.
    if (next.origin !== origin) throw new OutboundFailed('redirect', `answered ${res.status}, a redirect to another host (${next.host}), which is not followed: use that address if you trust it`);
    if (req.method !== 'GET' || hop >= REDIRECTS) return res;
    url = checkOutboundUrl(next.href, req.allowed);
  }
}

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS)',
};

function classify(e: NodeJS.ErrnoException): OutboundFailed {
  const code = e.code ?? '';
  if (CONNECT_ERRORS[code]) return new OutboundFailed('connect', `could not connect (${CONNECT_ERRORS[code]})`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || e.message === 'socket hang up' || e.message === 'aborted') {
    return new OutboundFailed('dropped', 'the connection dropped before the answer was complete');
  }
  if (/certificate|SSL|TLS/i.test(`${code} ${e.message}`)) return new OutboundFailed('connect', `TLS failed (${e.message})`);
  return new OutboundFailed('connect', e.message || code || 'the request failed');
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(zlib.createGunzip());
  if (encoding === 'br') return res.pipe(zlib.createBrotliDecompress());
  if (encoding === 'deflate') return res.pipe(zlib.createInflate());
  return res;
}

async function exchange(u: URL, req: OutboundRequest): Promise<OutboundResponse> {
  const target = await resolveChecked(u, req.allowed);
  if (req.signal?.aborted) throw req.signal.reason instanceof Error ? req.signal.reason : new OutboundFailed('aborted', 'stopped');
  const maxBytes = req.maxBytes ?? OUTBOUND_READ_MAX_BYTES;
  const timeoutMs = req.timeoutMs ?? OUTBOUND_READ_TIMEOUT_MS;
  const client = u.protocol === 'https:' ? https : http;
  const body = req.body;
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const finish = (e: Error | null, value?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.signal?.removeEventListener('abort', onAbort);
      if (e) {
        request.destroy();
        reject(e);
      } else resolve(value!);
    };
    const onAbort = () => finish(req.signal?.reason instanceof Error ? req.signal.reason : new OutboundFailed('aborted', 'stopped'));
    const request = client.request(
      u,
      {
        method: req.method,
        headers: {
          'user-agent': 'LiveDash-Integrations/1',
          accept: 'application/json',
          'accept-encoding': 'gzip, br, deflate',
          ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...req.headers,
        },
        lookup: pinnedLookup(target),
        agent: false,
      },
      (res) => {
        const declared = Number(res.headers['content-length']);
        if (!res.headers['content-encoding'] && Number.isFinite(declared) && declared > maxBytes) {
          return finish(new OutboundFailed('too_large', `the answer is ${formatBytes(declared)}, more than the ${formatBytes(maxBytes)} one page may be`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const stream = decoded(res);
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return finish(new OutboundFailed('too_large', `the answer is larger than the ${formatBytes(maxBytes)} one page may be`));
          chunks.push(c);
        });
        stream.on('end', () => {
          if (!res.complete) return finish(new OutboundFailed('dropped', 'the connection dropped before the answer was complete'));
          finish(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), url: u.href });
        });
        stream.on('error', (e: NodeJS.ErrnoException) => finish(stream === res ? classify(e) : new OutboundFailed('dropped', `the answer could not be decompressed (${e.message})`)));
        res.on('error', (e: NodeJS.ErrnoException) => finish(classify(e)));
        res.on('close', () => {
          if (!res.complete) finish(new OutboundFailed('dropped', 'the connection dropped before the answer was complete'));
        });
      },
    );
    // First: a request destroyed by a finish below still reports its error here, never as an uncaught one.
    request.on('error', (e: NodeJS.ErrnoException) => finish(classify(e)));
    const deadline = setTimeout(() => finish(new OutboundFailed('timeout', `no answer within ${Math.round(timeoutMs / 100) / 10} s`)), timeoutMs);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
