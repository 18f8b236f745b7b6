import crypto from 'node:crypto';
import { Counter } from 'prom-client';
import { EMBED_LEEWAY_SECONDS } from '@common/schemas/sharing/embedding';
import { AppHandle, ApiError, metricsOf, type AppContext } from '../../core';
import { ErrorCode } from '@common/schemas/errors';
import { embedTokenOpens } from '../../access';
import { viewCacheOf } from '../../publicView';
import { secretFor } from './secrets';
import { EMBED_REFUSAL_REASONS, hmacKey, verifyEmbedToken, type EmbedGrant, type EmbedRefusalReason, type VerifyingSecret } from './tokens';

/** The one answer to every refused token: no hint which check failed. */
export const EMBED_REFUSED_MESSAGE = 'This embed token is not valid: it may have expired, been signed with another or an old secret, or been changed. The page that embeds the dashboard must sign a new one.';

/** A refused token (its reason goes to the metric only). */
export class EmbedRefused extends ApiError {
  constructor(readonly reason: EmbedRefusalReason) {
    super(401, ErrorCode.embedTokenInvalid, EMBED_REFUSED_MESSAGE);
  }
}

/** Verified tokens held at most per process; beyond it the oldest goes (and is verified again when it comes back). */
const MAX_GRANTS = 10_000;
/** Dashboards' secrets held at most (negative answers too). */
const MAX_SECRETS = 10_000;

/** What embedded viewing is counted as: views over REST, CSV exports, socket joins. */
export type EmbedUse = 'view' | 'export' | 'join';

/**
 * Signed embedding on one app: dashboards' secrets (unsealed and imported once, then held) and the
 * tokens verified with them, held until their `exp` (plus the leeway), so a view answered from the
 * view cache costs a map look-up and a clock comparison, not a verification. A secret's change (made
 * here, or relayed from another process) drops its dashboard's secret and tokens at once; a load
 * that raced with a change is used for its one answer but not held.
 */
export class EmbedAccess {
  private readonly secrets = new Map<string, Promise<VerifyingSecret | null>>();
  private readonly grants = new Map<string, EmbedGrant>();
  private generation = 0;
  private readonly refusals: Counter<'reason'>;
  private readonly uses: Counter<'kind'>;
  /** Secrets read from the database (tests read it). */
  secretLoads = 0;

  constructor(private readonly app: AppContext) {
    const registers = [metricsOf(app).registry];
    this.refusals = new Counter({ name: 'livedash_embed_refusals_total', help: 'Signed embed tokens refused, by reason (malformed, algorithm, signature, expired, no_expiry, lifetime_too_long, not_yet_valid, no_secret, claims)', labelNames: ['reason'], registers });
    this.uses = new Counter({ name: 'livedash_embed_views_total', help: 'Embedded dashboards opened with a valid signed token: views over REST, CSV exports, socket joins', labelNames: ['kind'], registers });
    for (const reason of EMBED_REFUSAL_REASONS) this.refusals.inc({ reason }, 0);
    for (const kind of ['view', 'export', 'join'] as const) this.uses.inc({ kind }, 0);
  }

  /**
   * The grant of a token, verified or held; throws `EmbedRefused` (401) otherwise. `count: false`
   * (a page's frame-ancestors) leaves the refusal out of the metric.
   */
  async open(token: string, opts: { count?: boolean } = {}): Promise<EmbedGrant> {
    const held = this.peek(token);
    if (held) return held;
    const generation = this.generation;
    const verdict = await verifyEmbedToken(token, (id) => this.secret(id), { maxTtlSeconds: this.app.config.EMBED_MAX_TTL_SECONDS });
    if (!verdict.ok) {
      if (opts.count !== false) this.refusals.inc({ reason: verdict.reason });
      throw new EmbedRefused(verdict.reason);
    }
    if (generation === this.generation) {
      if (this.grants.size >= MAX_GRANTS) this.grants.delete(this.grants.keys().next().value!);
      this.grants.set(token, verdict.grant);
    }
    return verdict.grant;
  }

  /** The held grant of a token while it opens (nothing awaited, nothing verified); undefined otherwise. */
  peek(token: string, now = Date.now()): EmbedGrant | undefined {
    const grant = this.grants.get(token);
    if (!grant) return undefined;
    if (embedTokenOpens(grant, now)) return grant;
    this.grants.delete(token);
    return undefined;
  }

  /** Counts a use of a valid token. */
  used(kind: EmbedUse): void {
    this.uses.inc({ kind });
  }

  /** The id of a dashboard's current secret (null: none), read again from the database. */
  async currentSecretId(dashboardId: string): Promise<string | null> {
    return (await this.secret(dashboardId))?.secretId ?? null;
  }

  /** A dashboard's secret changed (null: any may have): its secret and tokens are forgotten here. Answers the tokens dropped. */
  forget(dashboardId: string | null): string[] {
    this.generation++;
    const dropped: string[] = [];
    if (dashboardId === null) this.secrets.clear();
    else this.secrets.delete(dashboardId);
    for (const [token, grant] of this.grants) {
      if (dashboardId !== null && grant.dashboardId !== dashboardId) continue;
      this.grants.delete(token);
      dropped.push(token);
    }
    return dropped;
  }

  private secret(dashboardId: string): Promise<VerifyingSecret | null> {
    const held = this.secrets.get(dashboardId);
    if (held) return held;
    const generation = this.generation;
    this.secretLoads++;
    const loading = secretFor(this.app, dashboardId).then(async (s) => (s ? { secretId: s.secretId, key: await hmacKey(new Uint8Array(s.bytes)) } : null));
    if (this.secrets.size >= MAX_SECRETS) this.secrets.delete(this.secrets.keys().next().value!);
    this.secrets.set(dashboardId, loading);
    // A read that raced with a change, or that failed, is not held.
    loading.then(
      () => generation !== this.generation && this.secrets.get(dashboardId) === loading && this.secrets.delete(dashboardId),
      () => this.secrets.get(dashboardId) === loading && this.secrets.delete(dashboardId),
    );
    return loading;
  }
}

/** The view cache's key of a token's view (one per token: its `embed` part carries the token's expiry). */
export const embedViewCacheKey = (token: string): string => `embed:${token}`;

const accessHandle = new AppHandle<EmbedAccess>('signed embedding', (app) => {
  const access = new EmbedAccess(app);
  app.events.on('embedding.secretChanged', ({ dashboardId }) => {
    // The dropped tokens' views go too (they could only be reached through a held grant anyway).
    for (const token of access.forget(dashboardId)) viewCacheOf(app).forgetLocked(embedViewCacheKey(token));
  });
  return access;
});

/** The app's signed embedding state, made on first use and following secret changes from then on. */
export const embedAccessOf = (app: AppContext): EmbedAccess => accessHandle.of(app);

/**
 * The locked view a token's viewers share: one per dashboard and set of filters (tokens of the same
 * tenant share its view and its deltas); null for a token that locks nothing. A dot tells it from a
 * share link's id (the locked views of both live side by side in the view cache).
 */
export function embedViewKey(grant: Pick<EmbedGrant, 'dashboardId' | 'filters'>): string | null {
  if (!grant.filters.length) return null;
  return `${grant.dashboardId}.${crypto.createHash('sha256').update(JSON.stringify(grant.filters)).digest('base64url').slice(0, 22)}`;
}

/** Whether a locked view's key is an embed view's (else a share link's id). */
export const isEmbedViewKey = (key: string): boolean => key.includes('.');

/** The leeway, in ms (an expired grant is dropped once `exp` plus it has passed). */
export const EMBED_LEEWAY_MS = EMBED_LEEWAY_SECONDS * 1000;
