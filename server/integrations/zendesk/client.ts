import { OutboundFailed, OutboundRefused, requestOutbound, type OutboundResponse } from '../../core';

/**
 * A small Zendesk REST client: bearer auth, same-origin paging, 429 + Retry-After handling; every
 * call through the one way out (requestOutbound: the Host URL checked after DNS like any outbound
 * address, the connection pinned to the checked address).
 */

export class ZendeskApiError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ZendeskClientOptions {
  baseUrl: string;
  accessToken: string;
  /** The origin that issued the access token: the only one it is sent to. */
  tokenOrigin: string;
  /** host:port pairs that may be reached over plain http or at internal addresses (zendeskHosts). */
  allowed: readonly string[];
  /** How many 429 answers one request may meet before it gives up. */
  maxRetries?: number;
  /** Longest Retry-After we are willing to wait, in seconds. */
  maxRetryAfterSeconds?: number;
  signal?: AbortSignal;
  onRateLimit?: (seconds: number, path: string) => void;
  /** Called once on a 401: answers a fresh access token (refresh grant) or null. */
  refreshToken?: () => Promise<string | null>;
  timeoutMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });

export class ZendeskClient {
  private readonly origin: string;
  private accessToken: string;
  private refreshed = false;

  constructor(private readonly opts: ZendeskClientOptions) {
    this.origin = new URL(opts.baseUrl).origin;
    // A token issued by one host never goes to another (the Host URL changed without a new authorization).
    if (this.origin !== opts.tokenOrigin) throw new ZendeskApiError(0, '', 'The stored token was issued by another Zendesk host: reconnect this integration');
    this.accessToken = opts.accessToken;
  }

  /** GET a path (or an absolute next-page URL on the same host) and parse its JSON. */
  async get<T>(pathOrUrl: string): Promise<T> {
    const url = new URL(pathOrUrl, this.origin);
    // The token only ever goes to the host that issued it.
    if (url.origin !== this.origin || url.origin !== this.opts.tokenOrigin) throw new ZendeskApiError(0, url.pathname, `Refusing to follow a page URL on another host (${url.origin})`);
    const path = url.pathname;
    const maxRetries = this.opts.maxRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      let res: OutboundResponse;
      try {
        res = await requestOutbound({
          method: 'GET', url: url.href, headers: { authorization: `Bearer ${this.accessToken}`, accept: 'application/json' },
          allowed: this.opts.allowed, timeoutMs: this.opts.timeoutMs ?? 60_000, signal: this.opts.signal,
        });
      } catch (e) {
        if (this.opts.signal?.aborted) throw e;
        if (!(e instanceof OutboundFailed || e instanceof OutboundRefused)) throw e;
        throw new ZendeskApiError(0, path, `GET ${path} failed: ${e.message}`);
      }
      if (res.status === 429 && attempt < maxRetries) {
        const header = res.headers['retry-after'];
        const seconds = Math.min(this.opts.maxRetryAfterSeconds ?? 120, Math.max(1, Number(header) || 60));
        this.opts.onRateLimit?.(seconds, path);
        await sleep(seconds * 1000, this.opts.signal);
        continue;
      }
      if (res.status === 401 && !this.refreshed && this.opts.refreshToken) {
        this.refreshed = true;
        const fresh = await this.opts.refreshToken().catch(() => null);
        if (fresh) {
          this.accessToken = fresh;
          continue;
        }
      }
      if (res.status < 200 || res.status >= 300) {
        const text = res.body.toString('utf8');
        let detail = text.slice(0, 200);
        try {
          const j = JSON.parse(text) as { error?: unknown; description?: unknown };
          detail = [j.error, j.description].filter((x) => typeof x === 'string').join(': ') || detail;
        } catch {
          // not JSON
        }
        throw new ZendeskApiError(res.status, path, `GET ${path} answered ${res.status}${detail ? ` (${detail})` : ''}`);
      }
      try {
        return JSON.parse(res.body.toString('utf8')) as T;
      } catch {
        throw new ZendeskApiError(res.status, path, `GET ${path} answered ${res.status} with a body that is not JSON`);
      }
    }
  }
}
