import { z } from 'zod';

/**
 * One spelling per id. Every id that comes from outside (a REST path parameter, a socket join, a
 * share link's token) goes through these before any cache, room or counter sees it, so a second
 * spelling of the same id (upper-case hex) is the same thing under its canonical key, never a
 * second cache entry, room or view counter.
 */

const OBJECT_ID = /^[0-9a-fA-F]{24}$/;
/** A share link's token as links carry it: 32 base64url characters (case matters). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** A data source's own name for itself (`CSTM_…`, `zendesk_…`), accepted where its id is. */
const SOURCE_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A viewer page (one page load of a viewer; the web app sends it in the socket handshake). */
const VIEWER_PAGE = /^[A-Za-z0-9_-]{16,64}$/;

/** A viewer page's id as the web app makes it (random, once per page load), or null. */
export function canonicalViewerPage(raw: unknown): string | null {
  return typeof raw === 'string' && VIEWER_PAGE.test(raw) ? raw : null;
}

/** A MongoDB ObjectId (dashboard, data source, link, integration id) in lower-case hex, or null. */
export function canonicalObjectId(raw: unknown): string | null {
  return typeof raw === 'string' && OBJECT_ID.test(raw) ? raw.toLowerCase() : null;
}

/** A share link's token, or null when it cannot be one. Tokens are case-sensitive: kept as written. */
export function canonicalShareToken(raw: unknown): string | null {
  return typeof raw === 'string' && SHARE_TOKEN_PATTERN.test(raw) ? raw : null;
}

/** A data source named by its id (lower-cased) or its `sourceId` (as written), or null. */
export function canonicalDataSourceRef(raw: unknown): string | null {
  return canonicalObjectId(raw) ?? (typeof raw === 'string' && SOURCE_ID.test(raw) ? raw : null);
}

const canonical = (fn: (raw: unknown) => string | null, what: string) =>
  z.string().transform((raw, ctx) => {
    const id = fn(raw);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: `not a ${what}` });
      return z.NEVER;
    }
    return id;
  });

/** A path parameter holding an ObjectId, canonicalised. */
export const ObjectIdParam = canonical(canonicalObjectId, 'valid id');
/** A path parameter holding a share token. */
export const ShareTokenParam = canonical(canonicalShareToken, 'share link token');
/** A path parameter naming a data source by id or sourceId. */
export const DataSourceRefParam = canonical(canonicalDataSourceRef, 'data source id');
