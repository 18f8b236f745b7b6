import crypto from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import type { Role } from '@common/schemas/auth';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext, Audience, IngestCredential, IngestState, PrincipalState } from '../core';
import { ApiError, ForbiddenError, InvalidAdminTokenError, findSourceByIngestKey, actingAs } from '../core';
import { askerOf, hasRole, type Asker } from './policy';
import { API_TOKEN_PREFIX, sessionEndedError, type Principal, accountsHandle } from './accounts/accounts';
import { isCrossSite, readSessionCookie, setSessionCookie } from './accounts/cookies';
import { failedCredentials } from './failedCredentials';
import { rateLimitsHandle } from './rateLimits';

/**
 * Who may call a route: anyone; the admin or a data source's ingest key; or a signed-in role —
 * viewer (any role), editor (editor or admin), admin (admin only; the admin token counts as admin).
 */
export type { Audience } from '../core';

/** The first middleware of every route: it declares the route's audience and enforces it. */
export type Guard = Middleware & { readonly audience: Audience };

const guard = (audience: Audience, fn: (ctx: Context, next: Next) => Promise<unknown>): Guard => Object.assign(fn, { audience });

/** The bearer credential of a request, or null. */
export function bearerToken(ctx: Context): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization').trim());
  return m ? m[1] : null;
}

/** Compares two secrets in constant time (hashing first so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

export function isAdminToken(token: string | null, adminToken: string): boolean {
  return token !== null && safeEqual(token, adminToken);
}

export type { IngestState, PrincipalState } from '../core';

export const principalOf = (ctx: Context): Principal | null => (ctx.state as Partial<PrincipalState>).principal ?? null;

/** The caller as the access policy sees it (server/access/policy.ts): its role and dashboard limits. */
export const askerOfRequest = (ctx: Context): Asker => askerOf(principalOf(ctx));

const describeAs = (p: Principal) => (p.via === 'adminToken' ? 'the admin token' : `${p.user?.email} (${p.role})`);

/**
 * The credential of a request: a bearer token (the admin token or a personal API token), else the
 * session cookie. Null when there is none; 401 when it is wrong or has ended. Only reads the
 * database (and only the first time within a short while) when a credential is present.
 */
export async function resolvePrincipal(app: AppContext, ctx: Context): Promise<Principal | null> {
  const token = bearerToken(ctx);
  if (token) {
    if (!app.config.ADMIN_TOKEN_DISABLED && isAdminToken(token, app.adminToken)) return { via: 'adminToken', role: 'admin', user: null, credentialHash: null };
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const p = await accountsHandle.of(app).lookupApiToken(token);
      if (!p) throw new ApiError(401, ErrorCode.invalidApiToken, 'This personal API token is unknown, revoked or expired');
      return p;
    }
    throw InvalidAdminTokenError();
  }
  const session = readSessionCookie(ctx.get('cookie'));
  if (!session) return null;
  const p = await accountsHandle.of(app).lookupSession(session);
  if (!p) {
    setSessionCookie(ctx, app.config, '', 0);
    throw sessionEndedError();
  }
  return p;
}

/** A credential was refused: the activity log keeps the route and the audience, never the credential. */
export function credentialRefused(app: AppContext, ctx: Context, audience: 'admin' | 'ingest'): void {
  const what = audience === 'ingest' ? 'ingest credential' : 'admin token';
  app.events.emit('activity.happened', { kind: 'auth.failed', category: 'auth', summary: `Refused ${what} on ${ctx.method} ${ctx.path}`, address: ctx.ip || null, details: { audience, method: ctx.method, path: ctx.path } });
}

/**
 * Route guards, Outline style: `router.post('/…', auth.editor(), jsonBody(…), validate(…))`.
 * They run before any body is read, so a request without a valid credential costs no parsing.
 * Failed bearer credentials count per (address, credential) and, once each, per address (failedCredentials).
 * A write authenticated by the session cookie must come from our own site (403 otherwise).
 */
export function createGuards(app: AppContext) {
  const limits = rateLimitsHandle.of(app);
  const failures = failedCredentials(limits);
  const credentialFailed = async (ctx: Context, credential: string | null, error: unknown) => {
    if (credential !== null && error instanceof ApiError && error.status === 401 && error.code !== ErrorCode.sessionEnded) {
      credentialRefused(app, ctx, error.code === ErrorCode.invalidIngestCredential ? 'ingest' : 'admin');
      await failures.failed(ctx.ip, credential);
    }
    throw error;
  };

  const role = (needed: Role) =>
    guard(needed, async (ctx, next) => {
      const token = bearerToken(ctx);
      if (token) await failures.check(ctx, ctx.ip, token);
      const principal = await resolvePrincipal(app, ctx).catch((e: unknown) => credentialFailed(ctx, token, e));
      if (!principal) {
        throw new ApiError(401, ErrorCode.signInRequired, 'Sign in first, or send Authorization: Bearer <admin token or personal API token>');
      }
      if (principal.via === 'session' && ctx.method !== 'GET' && ctx.method !== 'HEAD' && isCrossSite(ctx, app.config)) {
        throw ForbiddenError('This request came from another site: changes made with the session cookie must come from LiveDash itself', ErrorCode.crossSiteRequest);
      }
      if (!hasRole(askerOf(principal), needed)) throw ForbiddenError(`This needs the ${needed} role; you are signed in as ${describeAs(principal)}`);
      (ctx.state as PrincipalState).principal = principal;
      actingAs(principal);
      return next();
    });

  return {
    /** Anyone, no credential. */
    public: () => guard('public', (_ctx, next) => next()),

    /** Any signed-in person (viewer, editor or admin), a personal API token, or the admin token. */
    viewer: () => role('viewer'),

    /** An editor or an admin (session or personal API token), or the admin token. */
    editor: () => role('editor'),

    /** An admin (session or personal API token), or the admin token. */
    admin: () => role('admin'),

    /**
     * The admin token, an admin's personal API token, or an existing data source's ingest key (the
     * service gets that source and refuses any other). With `queryKey`, an ingest key may also come
     * as `?key=` for senders that can only be given a URL (the path alone is ever logged, never the query).
     */
    ingest: (opts: { queryKey?: boolean } = {}) =>
      guard('ingest', async (ctx, next) => {
        const fromHeader = bearerToken(ctx) ?? (ctx.get('x-ingest-key').trim() || null);
        const fromQuery = opts.queryKey && typeof ctx.query.key === 'string' ? ctx.query.key.trim() || null : null;
        const credential = fromHeader ?? fromQuery;
        if (!credential) {
          const how = opts.queryKey ? ", or the source's ingest key as ?key=<ingest key>" : '';
          throw new ApiError(401, ErrorCode.ingestCredentialRequired, `Ingest needs a credential: send Authorization: Bearer <admin token or the data source's ingest key>${how}`);
        }
        await failures.check(ctx, ctx.ip, credential);
        // The admin token and personal API tokens only ever in a header: a URL ends up in proxies' and senders' logs.
        let state: IngestCredential | null = null;
        if (fromHeader !== null && !app.config.ADMIN_TOKEN_DISABLED && isAdminToken(credential, app.adminToken)) {
          const principal: Principal = { via: 'adminToken', role: 'admin', user: null, credentialHash: null };
          state = { admin: true, principal };
          actingAs(principal);
        } else if (credential.startsWith(API_TOKEN_PREFIX)) {
          const p = fromHeader !== null ? await accountsHandle.of(app).lookupApiToken(credential) : null;
          if (p && hasRole(askerOf(p), 'admin')) {
            state = { admin: true, principal: p };
            actingAs(p);
          }
        } else {
          const source = await findSourceByIngestKey(app, credential);
          if (source) state = { admin: false, source };
        }
        if (!state) {
          return credentialFailed(
            ctx,
            credential,
            new ApiError(401, ErrorCode.invalidIngestCredential, "This credential is neither the admin token, an admin's personal API token nor a data source's ingest key"),
          );
        }
        await limits.ingest.consume(ctx, credential);
        (ctx.state as IngestState).ingestCredential = state;
        return next();
      }),
  };
}

export type Guards = ReturnType<typeof createGuards>;
