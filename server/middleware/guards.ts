import crypto from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../context';
import { AdminTokenRequiredError, ApiError, InvalidAdminTokenError } from '../errors';
import type { IngestCredential } from '../services/ingestRecords';
import { findSourceByIngestKey } from '../services/dataSources';

/** Who may call a route: anyone, the admin or a data source's ingest key, or the admin only. */
export type Audience = 'public' | 'ingest' | 'admin';

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

/** What an ingest route knows about its caller once the guard let it through. */
export interface IngestState {
  ingestCredential: IngestCredential;
}

/**
 * Route guards, Outline style: `router.post('/…', auth.admin(), jsonBody(…), validate(…))`.
 * They run before any body is read, so a request without a valid credential costs no parsing.
 * Failed credentials count against the per-address limit; past it every attempt answers 429.
 */
export function createGuards(app: AppContext) {
  const { limits } = app;
  const credentialFailed = async (ctx: Context, error: ApiError) => {
    app.activity.signInFailed(ctx, error.code === ErrorCode.invalidIngestCredential ? 'ingest' : 'admin');
    await limits.authFailures.penalize(ctx.ip);
    throw error;
  };
  return {
    /** Anyone, no credential. */
    public: () => guard('public', (_ctx, next) => next()),

    /** The admin token only. */
    admin: () =>
      guard('admin', async (ctx, next) => {
        const token = bearerToken(ctx);
        if (!token) throw AdminTokenRequiredError();
        await limits.authFailures.check(ctx, ctx.ip);
        if (!isAdminToken(token, app.adminToken)) await credentialFailed(ctx, InvalidAdminTokenError());
        return next();
      }),

    /**
     * The admin token, or an existing data source's ingest key (the service gets that source and
     * refuses any other). With `queryKey`, an ingest key may also come as `?key=` for senders that
     * can only be given a URL (the path alone is ever logged, never the query).
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
        await limits.authFailures.check(ctx, ctx.ip);
        // The admin token only ever in a header: a URL ends up in proxies' and senders' logs.
        const admin = fromHeader !== null && isAdminToken(credential, app.adminToken);
        const source = admin ? null : await findSourceByIngestKey(app, credential);
        let state: IngestCredential;
        if (admin) state = { admin: true };
        else if (source) state = { admin: false, source };
        else {
          return credentialFailed(
            ctx,
            new ApiError(401, ErrorCode.invalidIngestCredential, "This credential is neither the admin token nor a data source's ingest key"),
          );
        }
        await limits.ingest.consume(ctx, credential);
        (ctx.state as IngestState).ingestCredential = state;
        return next();
      }),
  };
}

export type Guards = ReturnType<typeof createGuards>;
