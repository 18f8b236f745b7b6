import crypto from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import helmet, { type HelmetOptions } from 'helmet';
import koaHelmet from 'koa-helmet';

type NoncedResponse = ServerResponse & { cspNonce?: string };

/** One policy for every answer: Koa's middleware and the public view's hot path use it alike. */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      // The nonce is the response's own (answers without one, such as JSON, get 'self' only).
      'script-src': ["'self'", (_req, res) => ((res as NoncedResponse).cspNonce ? `'nonce-${(res as NoncedResponse).cspNonce}'` : "'self'")],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'self'"],
    },
  },
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // Only meaningful over https, where a proxy terminates TLS; harmless otherwise.
  strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
};

/**
 * Security headers on every response (helmet): a Content-Security-Policy the built app satisfies
 * (scripts only from our origin or with this response's nonce; inline styles allowed because antd
 * injects its CSS-in-JS at run time), frame-ancestors 'self', nosniff, a Referrer-Policy, and a
 * Cross-Origin-Opener-Policy that keeps the OAuth popup's link to the console.
 * `ctx.state.cspNonce` holds the nonce for a server-rendered page's one inline script.
 */
export function securityHeaders(): Middleware {
  const headers = koaHelmet(OPTIONS);
  return async (ctx, next) => {
    const nonce = crypto.randomBytes(16).toString('base64');
    ctx.state.cspNonce = nonce;
    (ctx.res as NoncedResponse).cspNonce = nonce;
    return headers(ctx, next);
  };
}

/** The same headers for an answer without a nonce, computed once (for answers made outside Koa). */
export function staticSecurityHeaders(): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const res = {
    setHeader: (name: string, value: string) => void (out[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete out[name.toLowerCase()],
  };
  helmet(OPTIONS)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return out;
}
