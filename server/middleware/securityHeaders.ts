import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';

type NoncedResponse = ServerResponse & { cspNonce?: string };

/**
 * Security headers on every response (helmet): a Content-Security-Policy the built app satisfies
 * (scripts only from our origin or with this response's nonce; inline styles allowed because antd
 * injects its CSS-in-JS at run time), frame-ancestors 'self', nosniff, a Referrer-Policy, and a
 * Cross-Origin-Opener-Policy that keeps the OAuth popup's link to the console.
 * `ctx.state.cspNonce` holds the nonce for a server-rendered page's one inline script.
 */
export function securityHeaders(): Middleware {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", (_req, res) => `'nonce-${(res as NoncedResponse).cspNonce}'`],
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
  });
  return async (ctx, next) => {
    const nonce = crypto.randomBytes(16).toString('base64');
    ctx.state.cspNonce = nonce;
    (ctx.res as NoncedResponse).cspNonce = nonce;
    return headers(ctx, next);
  };
}
