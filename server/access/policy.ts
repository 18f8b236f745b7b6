import { roleIncludes, type Role } from '@common/schemas/auth';
import { EMBED_LEEWAY_SECONDS } from '@common/schemas/sharing/embedding';
import { canonicalObjectId } from '@common/ids';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import type { AppContext, DashboardDoc, DataSourceDoc, IngestCredential, ShareLinkDoc } from '../core';
import { ForbiddenError, NotFoundError, findDataSource, lockedFiltersOf } from '../core';
import type { Principal } from './accounts/accounts';

/**
 * The one place that answers "may this person use this dashboard / this data source". HTTP routes,
 * services, socket joins and the re-checks of recovered or changed sockets all ask here, so a new
 * route cannot decide differently from a room join.
 *
 * A person limited to chosen dashboards (an admin sets `dashboardIds`) uses those dashboards and the
 * data sources they show — as they are before the change being made, so moving one's own dashboard
 * to another source is judged against the sources one already has, never the one asked for.
 *
 * How a refusal answers, the same whether the thing exists or not (trying ids tells nothing):
 * - a dashboard or data source named in the path or query: 404, word for word what an unknown id
 *   gets (the person reads as if the others did not exist);
 * - a data source named in a body (a dashboard moved to it or created on it, an import into it):
 *   403 `forbidden`, checked before the source is looked up, so a real and an unknown id alike;
 * - what needs every dashboard (creating a dashboard): 403 saying why.
 *
 * An alert rule tied to a tile belongs to that tile's dashboard: a limited person reaches it only
 * through that dashboard (and its source), on every alert route and in the list (`mayUseAlert`).
 *
 * It also answers for the credentials that are not people: an ingest key writes only its own data
 * source (and the admin token or an admin's personal token any source that admin may use), and a
 * share link reads only its own dashboard, through its locked filters, while it is live; a signed
 * embed token, once verified, reads as a share link does.
 */

/** Who asks, as the policy sees it: an HTTP request's principal and a socket's data alike. */
export interface Asker {
  /** Null: signed out. */
  role: Role | null;
  /** The dashboards the person is limited to, or null for every dashboard. */
  dashboardIds: string[] | null;
}

const SIGNED_OUT: Asker = { role: null, dashboardIds: null };

/** The asker of a signed-in request (or a signed-out one). */
export const askerOf = (p: Principal | null): Asker => (p ? { role: p.role, dashboardIds: p.user?.dashboardIds ?? null } : SIGNED_OUT);

/** Whether the asker's role includes the one needed (admin ⊃ editor ⊃ viewer). */
export const hasRole = (who: Asker, needed: Role): boolean => Boolean(who.role && roleIncludes(who.role, needed));

/** The words of a refused role check ("Sign in as an admin"). */
export const signInAs = (needed: Role): string => `Sign in as ${needed === 'admin' ? 'an admin' : needed === 'editor' ? 'an editor or admin' : 'a member of the team'}`;

/**
 * The team always keeps an active admin: one who can act (enabled, with a password). The last one
 * may not be demoted, disabled or removed (the users feature asks, under its admins lock).
 */
export const isActiveAdmin = (u: { role: string; disabled?: boolean | null; passwordHash?: string | null }): boolean => u.role === 'admin' && !u.disabled && Boolean(u.passwordHash);

/** The database filter for the people `isActiveAdmin` accepts. */
export const ACTIVE_ADMINS = { role: 'admin', disabled: false, passwordHash: { $ne: null } } as const;

/** Whether a role change takes away the admin role. */
export const takesAdminAway = (newRole: Role | undefined): boolean => newRole !== undefined && !roleIncludes(newRole, 'admin');

/** Whether the asker is limited to chosen dashboards. */
export const isLimited = (who: Asker): boolean => who.dashboardIds !== null;

/** Whether a signed-in asker may use a dashboard (any spelling of its id). */
export function mayUseDashboard(who: Asker, dashboardId: string): boolean {
  if (!who.role) return false;
  if (!who.dashboardIds) return true;
  const id = canonicalObjectId(dashboardId);
  return id !== null && who.dashboardIds.includes(id);
}

/** Refuses a dashboard outside the asker's chosen dashboards: 404, word for word as an unknown id. */
export function requireDashboardUse(who: Asker, dashboardId: string): void {
  if (!mayUseDashboard(who, dashboardId)) throw NotFoundError(`Dashboard ${dashboardId}`);
}

/** The dashboards of a list the asker may use. */
export const usableDashboards = <T extends { id: string }>(who: Asker, list: T[]): T[] => list.filter((d) => mayUseDashboard(who, d.id));

/** Refuses what only someone with every dashboard may do. */
export function refuseLimited(who: Asker, what: string): void {
  if (isLimited(who)) throw ForbiddenError(`You are limited to chosen dashboards, so you cannot ${what}`);
}

/** The ids of the data sources the asker may use (those its dashboards show now), or null for every source. */
export async function usableSources(app: AppContext, who: Asker): Promise<Set<string> | null> {
  if (!who.role) return new Set();
  if (!who.dashboardIds) return null;
  const docs = who.dashboardIds.length ? await app.models.Dashboard.find({ _id: { $in: who.dashboardIds } }).lean<DashboardDoc[]>() : [];
  return new Set(docs.map((d) => d.dataSourceId).filter((id): id is string => Boolean(id)));
}

/** Whether the asker may use a data source, given by its canonical id. */
export async function mayUseSource(app: AppContext, who: Asker, dataSourceId: string): Promise<boolean> {
  const usable = await usableSources(app, who);
  return usable === null ? Boolean(who.role) : usable.has(dataSourceId);
}

/** The data sources of a list the asker may use. */
export async function usableSourcesOf<T extends { id: string }>(app: AppContext, who: Asker, list: T[]): Promise<T[]> {
  const usable = await usableSources(app, who);
  return usable ? list.filter((d) => usable.has(d.id)) : list;
}

/** Whether a socket may follow a data source's room (`datasource:<id>`): an editor who may use it. */
export const mayFollowSource = async (app: AppContext, who: Asker, dataSourceId: string): Promise<boolean> =>
  hasRole(who, 'editor') && mayUseSource(app, who, dataSourceId);

/**
 * A data source named in a path or query (id or sourceId, any spelling), for a read or a change of
 * it: 404 for an unknown one and for one the asker may not use alike.
 */
export async function requireSourceUse(app: AppContext, who: Asker, ref: string): Promise<DataSourceDoc> {
  const ds = await findDataSource(app, ref);
  if (!ds || !(await mayUseSource(app, who, String(ds._id)))) throw NotFoundError(`Data source ${ref}`);
  return ds;
}

/**
 * A data source named in a body (a dashboard created on or moved to it, an import into it): a
 * limited person gets 403 unless one of their dashboards already shows it — the same answer for an
 * unknown id. For everyone else the service answers an unknown id as it always did.
 */
export async function checkSourceInBody(app: AppContext, who: Asker, ref: string): Promise<void> {
  if (!isLimited(who)) return;
  const ds = await findDataSource(app, ref);
  if (ds && (await mayUseSource(app, who, String(ds._id)))) return;
  throw ForbiddenError(`You are limited to chosen dashboards: data source ${ref} is not one your dashboards show, so you cannot use it`);
}

/** An alert rule as the policy reads it: the source it watches, and the tile it is tied to (if any). */
export interface AlertTerms {
  dataSourceId: string;
  widget: { dashboardId: string } | null;
}

/**
 * Whether the asker may use an alert rule (read, change, test, delete, see its history). A rule tied
 * to a tile belongs to that tile's dashboard: a person limited to chosen dashboards reaches it only
 * when that dashboard is one of theirs — and, tied or not, its data source is one they may use.
 * `usable`: the asker's usable sources, when already known (a list asks once).
 */
export async function mayUseAlert(app: AppContext, who: Asker, alert: AlertTerms, usable?: Set<string> | null): Promise<boolean> {
  if (!hasRole(who, 'editor')) return false;
  if (alert.widget && !mayUseDashboard(who, alert.widget.dashboardId)) return false;
  const sources = usable === undefined ? await usableSources(app, who) : usable;
  return sources === null || sources.has(alert.dataSourceId);
}

/** Refuses an alert rule the asker may not use: 404, word for word as an unknown id (`id` as given). */
export async function requireAlertUse<T extends AlertTerms>(app: AppContext, who: Asker, id: string, alert: T | null): Promise<T> {
  if (!alert || !(await mayUseAlert(app, who, alert))) throw NotFoundError(`Alert ${id}`);
  return alert;
}

/** The alert rules of a list the asker may use. */
export async function usableAlerts<T extends AlertTerms>(app: AppContext, who: Asker, list: T[]): Promise<T[]> {
  const usable = await usableSources(app, who);
  const out: T[] = [];
  for (const a of list) if (await mayUseAlert(app, who, a, usable)) out.push(a);
  return out;
}

/**
 * Whether the asker may read what a receiver answered an alert's delivery (up to 200 characters of
 * any page on an allowed host): admins only. Editors see the status code and the timing.
 */
export const readsReceiverAnswers = (who: Asker): boolean => hasRole(who, 'admin');

/** Whether the asker may see and steer an import job uploaded by `owner` (a user id or the admin token): its own, or any for an admin. */
export const mayUseImportJob = (who: Asker & { userId: string | null }, owner: string): boolean =>
  hasRole(who, 'admin') || (hasRole(who, 'editor') && owner === (who.userId ?? 'admin-token'));

/**
 * Ingest-key scope, asked before any lookup: whether a data source's ingest key may write the source
 * a request names (its sourceId or id, as given). Any other name is refused the same way whether it
 * exists or not, so a key holder learns nothing of other sources.
 */
export const keyWritesTo = (keySource: Pick<DataSourceDoc, '_id' | 'sourceId'>, ref: string): boolean => ref === keySource.sourceId || ref === String(keySource._id);

/**
 * Ingest scope, once the named source is found: whether the credential may write or manage it. An
 * ingest key: its own source. The admin token: every source. An admin's personal API token: the
 * sources its person may use — for a person limited to chosen dashboards, those their dashboards
 * show (any other answers as an unknown source). The server's own writes (an import the policy
 * already allowed) carry no principal.
 */
export async function mayIngestInto(app: AppContext, who: IngestCredential, ds: Pick<DataSourceDoc, '_id'>): Promise<boolean> {
  if (!who.admin) return String(who.source._id) === String(ds._id);
  return who.principal ? mayUseSource(app, askerOf(who.principal), String(ds._id)) : true;
}

/** A share link as the policy reads it: the stored link, or the view cache's copy of it. */
export interface ShareLinkTerms {
  dashboardId: string;
  revoked: boolean;
  expiresAt: string | Date | null;
}

/** The terms of a stored share link. */
export const termsOf = (link: Pick<ShareLinkDoc, 'dashboardId' | 'revokedAt' | 'expiresAt'>): ShareLinkTerms => ({ dashboardId: link.dashboardId, revoked: Boolean(link.revokedAt), expiresAt: link.expiresAt ?? null });

/** Share-link scope: whether a link opens anything at `now` (neither revoked nor expired). */
export const shareLinkOpens = (link: Omit<ShareLinkTerms, 'dashboardId'>, now = Date.now()): boolean =>
  !link.revoked && (!link.expiresAt || new Date(link.expiresAt).getTime() > now);

/** Share-link scope: whether a link lets its holder read `dashboardId` — its own dashboard only, while it opens. */
export const shareLinkReads = (link: ShareLinkTerms, dashboardId: string, now = Date.now()): boolean => link.dashboardId === dashboardId && shareLinkOpens(link, now);

/** Share-link scope: the filters every record read through a link must match (its locked filters; none: the whole dashboard). */
export const shareLinkFilters = (link: Pick<ShareLinkDoc, 'filters'>): WidgetFilter[] => lockedFiltersOf(link);

/** A signed embed token as the policy reads it, once its signature is verified (server/sharing). */
export interface EmbedTokenTerms {
  dashboardId: string;
  /** `exp`, in seconds since the epoch. */
  exp: number;
  /** Its filters: locked filters, as a share link's. */
  filters: WidgetFilter[];
}

/**
 * Embed-token scope: a verified token is a share link that expires at its `exp` (read with the
 * clock leeway between the host that signed it and this server) and is revoked when its dashboard's
 * secret changes (its grant is then forgotten, so it is verified again and fails).
 */
export const embedTokenOpens = (token: Pick<EmbedTokenTerms, 'exp'>, now = Date.now()): boolean =>
  shareLinkOpens({ revoked: false, expiresAt: new Date((token.exp + EMBED_LEEWAY_SECONDS) * 1000) }, now);

/** Embed-token scope: whether a token lets its holder read `dashboardId` — its own dashboard only, while it opens. */
export const embedTokenReads = (token: EmbedTokenTerms, dashboardId: string, now = Date.now()): boolean =>
  shareLinkReads({ dashboardId: token.dashboardId, revoked: false, expiresAt: new Date((token.exp + EMBED_LEEWAY_SECONDS) * 1000) }, dashboardId, now);

/** Embed-token scope: the filters every record read through a token must match (none: the whole dashboard). */
export const embedTokenFilters = (token: Pick<EmbedTokenTerms, 'filters'>): WidgetFilter[] => token.filters;
