import { z } from 'zod';
import { embedOriginProblem, MAX_EMBED_ORIGINS } from '../../sharing';
import { canonicalObjectId } from '../../ids';
import type { PublicDashboardResponse } from '../publicView';
import { LockedFilter, MAX_LOCKED_FILTERS } from '../widgets/dashboardFilter';
import type { WidgetFilter } from '../widgets/widget';

export { MAX_EMBED_ORIGINS } from '../../sharing';

/** An origin as a browser sends it: http(s)://host[:port], nothing after. */
export const EmbedOrigin = z
  .string()
  .superRefine((text, c) => {
    const problem = embedOriginProblem(text);
    if (problem) c.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => new URL(text.trim()).origin);

/** PUT /api/admin/dashboards/:id/embedding */
export const UpdateEmbedding = z
  .object({ origins: z.array(EmbedOrigin).max(MAX_EMBED_ORIGINS, `At most ${MAX_EMBED_ORIGINS} origins`) })
  .strict();
export type UpdateEmbedding = z.input<typeof UpdateEmbedding>;

/** A dashboard's embedding secret as the console sees it: never the secret itself (it is answered once, when made). */
export interface EmbedSecretDto {
  /** When this secret was made (a rotation makes a new one). */
  createdAt: string;
  /** Who made it: a person's name or email, or "Admin token". */
  createdBy: string;
  /** The secret's first characters, so a host can tell which one it holds. */
  hint: string;
  /** Whether a previous secret was replaced by this one. */
  rotated: boolean;
  /**
   * False when the server cannot read it any more (it was stored under another SERVER_SECRET, or
   * under a random admin token of an earlier run): every token is refused until it is rotated.
   */
  readable: boolean;
}

/** Who may put a dashboard's viewer pages in an iframe (besides this site), and its embedding secret. */
export interface EmbeddingDto {
  dashboardId: string;
  origins: string[];
  /** Null: no secret yet, so no signed embed token opens this dashboard. */
  secret: EmbedSecretDto | null;
}

/** POST /api/admin/dashboards/:id/embedding/secret — the secret, in this answer only. */
export interface CreatedEmbedSecretDto {
  embedding: EmbeddingDto;
  /** 32 random bytes, base64url: the HS256 key the host signs its tokens with. */
  secret: string;
}

/** How far the clocks of the host that signs and of this server may disagree (exp, nbf), in seconds. */
export const EMBED_LEEWAY_SECONDS = 30;
export const EMBED_THEMES = ['light', 'dark'] as const;

/**
 * A filter a token locks: a share link's locked filter, and a comparison needs a value — an empty
 * one would match every record that lacks the field, the opposite of what a host forgetting a
 * tenant id means.
 */
const EmbedFilter = LockedFilter.superRefine((f, ctx) => {
  if (f.operator !== 'in' && f.value.trim() === '') ctx.addIssue({ code: 'custom', path: ['value'], message: 'A locked filter needs a value' });
});

/**
 * The claims of a signed embed token, read once its HS256 signature is checked: the dashboard it
 * opens (published or not), the filters its viewer is locked to (all applied), its expiry, and what
 * the page may do. Standard claims it does not name (iss, aud, jti) are allowed and ignored.
 */
export const EmbedClaims = z.object({
  dashboard: z.string().transform((raw, ctx) => {
    const id = canonicalObjectId(raw);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: 'dashboard must be a dashboard id' });
      return z.NEVER;
    }
    return id;
  }),
  filters: z.array(EmbedFilter).max(MAX_LOCKED_FILTERS).default([]),
  exp: z.number().finite(),
  iat: z.number().finite().optional(),
  nbf: z.number().finite().optional(),
  sub: z.string().max(256).optional(),
  allowCsv: z.boolean().default(false),
  theme: z.enum(EMBED_THEMES).optional(),
  tab: z.string().min(1).max(100).optional(),
});
export type EmbedClaims = z.infer<typeof EmbedClaims>;

/** What an embedded page may do and show, as its view carries it. */
export interface EmbedTerms {
  allowCsv: boolean;
  /** The token's `exp`: the page's socket ends then. */
  expiresAt: string;
  /** What the token locks, shown as fixed chips (the records are already only those that match). */
  filters?: WidgetFilter[];
  theme?: (typeof EMBED_THEMES)[number];
  /** The tab shown first. */
  tab?: string;
}

/** GET /api/embed/:token — the view of the dashboard a signed embed token opens. */
export interface EmbedViewResponse extends PublicDashboardResponse {
  embed: EmbedTerms;
}
