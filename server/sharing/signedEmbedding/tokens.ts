import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { canonicalObjectId } from '@common/ids';
import { EMBED_LEEWAY_SECONDS, EmbedClaims } from '@common/schemas/sharing/embedding';
import type { WidgetFilter } from '@common/schemas/widgets/widget';

/**
 * Why a signed embed token was refused: the `reason` label of the refusal metric only. The answer
 * to the holder is one 401 whatever the reason (no hint which check failed).
 */
export const EMBED_REFUSAL_REASONS = ['malformed', 'algorithm', 'signature', 'expired', 'no_expiry', 'lifetime_too_long', 'not_yet_valid', 'no_secret', 'claims'] as const;
export type EmbedRefusalReason = (typeof EMBED_REFUSAL_REASONS)[number];

/** A verified token: what it opens and what it allows. Its filters are locked filters, as a share link's. */
export interface EmbedGrant {
  dashboardId: string;
  /** The secret it was verified with: when the dashboard's secret changes, the grant ends. */
  secretId: string;
  filters: WidgetFilter[];
  allowCsv: boolean;
  theme?: 'light' | 'dark';
  tab?: string;
  /** The host's name for its viewer (not used to decide anything). */
  sub?: string;
  /** `exp`, in seconds since the epoch. */
  exp: number;
}

/** A dashboard's secret, ready to verify with: its id and its HMAC key. */
export interface VerifyingSecret {
  secretId: string;
  key: CryptoKey;
}

/** Longest token taken (a header and claims of ten filters fit in a fraction of it). */
export const MAX_EMBED_TOKEN_LENGTH = 8_192;
const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * The dashboard a token names, read without verifying it (null when it names none): only for what
 * a refused token may still decide — which sites may frame the page that says it is unavailable.
 */
export function claimedDashboard(token: string): string | null {
  if (token.length > MAX_EMBED_TOKEN_LENGTH || !JWS_COMPACT.test(token)) return null;
  try {
    return canonicalObjectId(decodeJwt(token).dashboard);
  } catch {
    return null;
  }
}

/** The HMAC key of a secret's bytes, for jose (imported once per secret, not per token). */
export const hmacKey = (bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> => crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);

type Verdict = { ok: true; grant: EmbedGrant } | { ok: false; reason: EmbedRefusalReason };
const refused = (reason: EmbedRefusalReason): Verdict => ({ ok: false, reason });

/** What a jose error says went wrong, in the refusal's words. */
function reasonOf(e: unknown): EmbedRefusalReason {
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (e instanceof errors.JOSEAlgNotAllowed || e instanceof errors.JOSENotSupported) return 'algorithm';
  if (e instanceof errors.JWTExpired) return 'expired';
  if (e instanceof errors.JWTClaimValidationFailed) return e.claim === 'exp' ? 'no_expiry' : e.claim === 'nbf' ? 'not_yet_valid' : 'claims';
  return 'malformed';
}

/**
 * Verifies a signed embed token with `jose`: a compact JWS whose header says HS256 (and nothing
 * else: `none`, HS512, RS256 — a public-key algorithm given the secret as its key — are refused
 * before any key is looked at), signed with the secret of the dashboard its `dashboard` claim
 * names, with an `exp` not past (30 s leeway), not further ahead than `maxTtlSeconds` (plus the
 * leeway), an `nbf` not in the future, and claims of the right shape. Another dashboard's id, a
 * changed claim or a wrong secret all fail the signature.
 */
export async function verifyEmbedToken(
  token: string,
  secretOf: (dashboardId: string) => Promise<VerifyingSecret | null>,
  opts: { maxTtlSeconds: number; now?: number },
): Promise<Verdict> {
  if (token.length > MAX_EMBED_TOKEN_LENGTH || !JWS_COMPACT.test(token)) return refused('malformed');
  let dashboardId: string | null;
  try {
    if (decodeProtectedHeader(token).alg !== 'HS256') return refused('algorithm');
    dashboardId = canonicalObjectId(decodeJwt(token).dashboard);
  } catch {
    return refused('malformed');
  }
  if (!dashboardId) return refused('claims');
  const secret = await secretOf(dashboardId);
  if (!secret) return refused('no_secret');
  const now = opts.now ?? Date.now();
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, secret.key, { algorithms: ['HS256'], clockTolerance: EMBED_LEEWAY_SECONDS, requiredClaims: ['exp'], currentDate: new Date(now) }));
  } catch (e) {
    return refused(reasonOf(e));
  }
  const claims = EmbedClaims.safeParse(payload);
  if (!claims.success || claims.data.dashboard !== dashboardId) return refused('claims');
  const c = claims.data;
  if (c.exp - now / 1000 > opts.maxTtlSeconds + EMBED_LEEWAY_SECONDS) return refused('lifetime_too_long');
  return {
    ok: true,
    grant: {
      dashboardId,
      secretId: secret.secretId,
      filters: c.filters,
      allowCsv: c.allowCsv,
      exp: c.exp,
      ...(c.theme && { theme: c.theme }),
      ...(c.tab && { tab: c.tab }),
      ...(c.sub && { sub: c.sub }),
    },
  };
}
