import type { IncomingHttpHeaders } from 'node:http';
import type { ApiConfig } from '@common/schemas/integrations/api';
import { OutboundFailed, OutboundRefused, requestOutbound } from '../../core';
import { UpstreamProblem, type PullContext } from '../provider';
import { scrubSecrets } from '../secrets';
import { authorizer, where, type Authorizer } from './auth';
import { apiSecrets } from './secrets';

/**
 * One page's request: the config's method, headers and body with the auth header, through the one
 * way out; 429 waited out (Retry-After, else a doubling backoff), a refused OAuth token fetched
 * again once, and every failure said in words naming where it happened.
 */

export interface Answer {
  json: unknown;
  headers: IncomingHttpHeaders;
  url: string;
}

/** How many 429 answers one page may meet before it gives up. */
const RATE_LIMIT_TRIES = 5;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

/** Seconds to wait from a Retry-After header (seconds or an HTTP date); null without one. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return null;
  if (/^\s*\d+\s*$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * What an error answer says about itself, shortly (its JSON `error`/`message`, or a line of text),
 * with the secrets scrubbed before it is cut short (a cut secret would no longer be recognised).
 */
function detailOf(body: Buffer, type: string, secrets: string[]): string {
  const text = body.subarray(0, 4096).toString('utf8').trim();
  if (!text) return '';
  const short = (t: string) => `: ${scrubSecrets(t, secrets).slice(0, 200)}`;
  try {
    const j = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const parts = ['error', 'message', 'error_description', 'detail', 'title'].map((k) => j?.[k]).filter((v): v is string => typeof v === 'string');
    return parts.length ? short(parts.join(': ')) : '';
  } catch {
    return /html/i.test(type) ? '' : short(text.split('\n')[0]);
  }
}

export class ApiRequester {
  private readonly auth: Authorizer;

  constructor(
    private readonly config: ApiConfig,
    private readonly ctx: PullContext,
  ) {
    this.auth = authorizer(config, ctx);
  }

  /** Requests one page and parses its JSON; throws UpstreamProblem naming the address (host and path, never the query). */
  async get(url: string): Promise<Answer> {
    const { ctx, config } = this;
    const at = where(url);
    for (let tries = 1; ; tries++) {
      const headers = { ...config.headers, ...(await this.auth.headers()) };
      let res;
      try {
        res = await requestOutbound({
          method: config.method ?? 'GET', url, headers, body: config.body === undefined ? undefined : JSON.stringify(config.body),
          allowed: ctx.allowedHosts, maxBytes: ctx.limits.maxPageBytes, timeoutMs: ctx.limits.requestTimeoutMs, signal: ctx.signal,
        });
      } catch (e) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw this.failure(e, at);
      }
      if (res.status === 429 && tries < RATE_LIMIT_TRIES) {
        const asked = retryAfterSeconds(res.headers['retry-after']);
        const wait = asked ?? 2 ** (tries - 1);
        if (wait > ctx.limits.maxRetryAfterSeconds) {
          throw new UpstreamProblem(`HTTP 429 from ${at}: asked to wait ${wait} s, longer than the ${ctx.limits.maxRetryAfterSeconds} s a sync waits; the next sync tries again`);
        }
        ctx.say(`Rate limited by ${new URL(url).host}: waiting ${wait} s before retrying`);
        await sleep(wait * 1000, ctx.signal);
        continue;
      }
      if (res.status === 401 && this.auth.refused()) continue;
      const type = String(res.headers['content-type'] ?? '');
      if (res.status < 200 || res.status >= 300) {
        const secrets = [...apiSecrets.values(config), ...[this.auth.token()].filter((t): t is string => Boolean(t))];
        throw new UpstreamProblem(`HTTP ${res.status} from ${at}${detailOf(res.body, type, secrets)}`);
      }
      try {
        return { json: JSON.parse(res.body.toString('utf8')), headers: res.headers, url: res.url };
      } catch {
        const head = res.body.subarray(0, 200).toString('utf8').replace(/\s+/g, ' ').trim();
        const start = head.length > 60 ? `${head.slice(0, 60)}…` : head;
        throw new UpstreamProblem(`the answer from ${at} is not JSON (${type || 'no content type'}${start ? `, it begins "${start}"` : ', it is empty'})`);
      }
    }
  }

  private failure(e: unknown, at: string): Error {
    if (e instanceof OutboundRefused) return new UpstreamProblem(`${at} is refused: ${e.message}`);
    if (e instanceof OutboundFailed) {
      if (e.kind === 'timeout') return new UpstreamProblem(`${e.message.replace(/^no answer/, `no answer from ${at}`)}`);
      if (e.kind === 'dropped') return new UpstreamProblem(`the connection to ${at} dropped before the answer was complete`);
      if (e.kind === 'too_large') return new UpstreamProblem(`${e.message.replace(/^the answer/, `the answer from ${at}`)}`);
      if (e.kind === 'connect') return new UpstreamProblem(`could not reach ${at}: ${e.message}`);
      return new UpstreamProblem(`${at} ${e.message}`);
    }
    return e instanceof Error ? e : new Error(String(e));
  }
}
