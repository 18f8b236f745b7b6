import mongoose, { type ClientSession, type mongo } from 'mongoose';
import { ErrorCode } from '@common/schemas/errors';
import type { DashboardVersionDto, VersionAuthor } from '@common/schemas/dashboardVersion';
import { diffDashboards, summaryOf } from '@common/dashboards/diffSentences';
import type { AppContext, DashboardDoc } from '../../core';
import { ApiError, NotFoundError, actingNow } from '../../core';
import { withDashboardLock } from './dashboardLock';
import { presentContent, presentVersion, storedContent, versionId, versionsOf, type DashboardVersionDoc, type StoredContent } from './versionModel';

/** What a save says about itself beyond the change. */
export interface SaveOptions {
  /** The version the change was made on (If-Match): a save on an older one is refused with 409 and changes nothing. */
  ifMatch?: number;
  /** What the person saving said ("add the region bar"). */
  message?: string | null;
  /** Who saves; default: who acts in the request being handled, else the server itself. */
  author?: VersionAuthor;
  /** The version whose content this save puts back. */
  restoredFrom?: number;
  /** The summary from the change's sentences ("Restored from version 3: …"); default: the sentences themselves. */
  summary?: (changes: string) => string;
  /** Names of data sources the change's words may need that the database no longer has (a removed source). */
  sourceNames?: Record<string, string>;
}

/** The fields of a dashboard a save sets. */
export type DashboardFields = Partial<StoredContent>;

/** Who acts in the request being handled: a person, the admin token, or (no request) the server. */
export function authorNow(): VersionAuthor {
  const p = actingNow()?.principal;
  if (p?.user) return { kind: 'person', id: p.user.id, name: p.user.name };
  if (p?.via === 'adminToken') return { kind: 'adminToken' };
  return { kind: 'system' };
}

/**
 * Whether a save's two writes go in one transaction: where the deployment runs them (a replica set
 * or sharded cluster), but not on the offline engine. Its transactions cost time growing with the
 * whole database (measured: an insert of a version inside one took 95 ms beside 20 versions and
 * 980 ms beside 1,000, against 11 ms and 29 ms outside), and its data is in memory anyway.
 */
const transactional = (ctx: AppContext) => ctx.transactions && ctx.db.mode !== 'embedded-jongodb';

/** Runs the writes of one save in one transaction where the deployment has them; otherwise one after the other. */
async function inOneStep<T>(ctx: AppContext, fn: (session?: ClientSession) => Promise<T>): Promise<T> {
  if (!transactional(ctx)) return fn();
  const session = await ctx.conn.startSession();
  try {
    let out: T | undefined;
    await session.withTransaction(async () => {
      out = await fn(session);
    });
    return out as T;
  } finally {
    await session.endSession();
  }
}

/** The versions' collection through the driver (its `_id`s are strings, not ObjectIds). */
const rawVersions = (ctx: AppContext) => versionsOf.of(ctx).collection as unknown as mongo.Collection<DashboardVersionDoc>;

/** The dashboard moved on under a save that named the version it was made on (inside a transaction: aborts it). */
class Moved extends Error {}

/** A stale save: 409 with the version now current and who saved it, so the client can show it and ask. */
export class VersionConflictError extends ApiError {
  constructor(readonly current: DashboardVersionDto, asked: number) {
    const who = current.author.kind === 'person' ? current.author.name : current.author.kind === 'adminToken' ? 'the admin token' : 'the server';
    super(409, ErrorCode.versionConflict, `This dashboard changed after version ${asked}: ${who} saved version ${current.version} at ${current.createdAt} (${current.summary}). Load it, or send the save again with If-Match: "${current.version}" to replace it.`);
  }

  override toBody() {
    const body = super.toBody();
    return { error: { ...body.error, current: this.current } } as ReturnType<ApiError['toBody']>;
  }
}

/** The entry of a dashboard's current version (a dashboard older than versions: one made up from its document). */
export async function currentVersionOf(ctx: AppContext, d: DashboardDoc): Promise<DashboardVersionDto> {
  const id = String(d._id);
  const doc = await versionsOf.of(ctx).findById(versionId(id, d.version ?? 0)).lean<DashboardVersionDoc>();
  if (doc) return presentVersion(doc);
  return { dashboardId: id, version: d.version ?? 0, createdAt: new Date(d.updatedAt).toISOString(), author: { kind: 'system' }, message: null, summary: 'As it was before versions were kept', restoredFrom: null };
}

const sourceNamesOf = async (ctx: AppContext, ids: (string | null | undefined)[], known: Record<string, string> = {}) => {
  const wanted = [...new Set(ids.filter((x): x is string => Boolean(x) && !known[x!] && mongoose.isObjectIdOrHexString(x)))];
  const docs = wanted.length ? await ctx.models.DataSource.find({ _id: { $in: wanted } }).lean() : [];
  const names = new Map<string, string>([...Object.entries(known), ...docs.map((s) => [String(s._id), s.name] as [string, string])]);
  return (id: string | null) => (id ? (names.get(id) ?? null) : null);
};

function versionDoc(dashboardId: string, version: number, content: StoredContent, summary: string, opts: SaveOptions, at: Date): DashboardVersionDoc {
  return {
    _id: versionId(dashboardId, version), dashboardId, version, createdAt: at, author: opts.author ?? authorNow(), message: opts.message?.trim() || null,
    summary, restoredFrom: opts.restoredFrom ?? null, content: JSON.stringify(storedContent(content)),
  };
}

/** Creates a dashboard as version 1, its version written in the same step. */
export async function createVersioned(ctx: AppContext, fields: StoredContent, opts: SaveOptions = {}): Promise<DashboardDoc> {
  const _id = new mongoose.Types.ObjectId();
  const id = String(_id);
  const summary = opts.summary?.(`Created the dashboard '${fields.name}'`) ?? `Created the dashboard '${fields.name}'`;
  return withDashboardLock(ctx, id, () =>
    inOneStep(ctx, async (session) => {
      const [doc] = await ctx.models.Dashboard.create([{ _id, ...storedContent(fields), version: 1 }], { session });
      const created = doc.toObject() as DashboardDoc;
      await rawVersions(ctx).insertOne(versionDoc(id, 1, created, summary, opts, created.updatedAt), { session });
      return created;
    }),
  );
}

/**
 * Saves a change of a dashboard as a new version: `change` gets the dashboard as it is and answers
 * the fields to set. The version number is the dashboard's own, compared and set in the same
 * update (one save wins, never two with one number; a save with no If-Match that lost the race is
 * made again on what won); the version's document is written in the same transaction where the
 * deployment has them. One insert per save; no other version is read.
 */
export async function saveVersioned(
  ctx: AppContext, id: string, change: (before: DashboardDoc) => DashboardFields, opts: SaveOptions = {},
): Promise<{ before: DashboardDoc; after: DashboardDoc }> {
  if (!mongoose.isObjectIdOrHexString(id)) throw NotFoundError(`Dashboard ${id}`);
  const { Dashboard } = ctx.models;
  return withDashboardLock(ctx, id, async () => {
    for (let attempt = 0; ; attempt++) {
      const before = await Dashboard.findById(id).lean<DashboardDoc>();
      if (!before) throw NotFoundError(`Dashboard ${id}`);
      const current = before.version ?? 0;
      if (opts.ifMatch !== undefined && opts.ifMatch !== current) throw new VersionConflictError(await currentVersionOf(ctx, before), opts.ifMatch);
      const set = change(before);
      const next = current + 1;
      const nameOf = await sourceNamesOf(ctx, set.dataSourceId !== undefined ? [before.dataSourceId, set.dataSourceId] : [], opts.sourceNames);
      try {
        const after = await inOneStep(ctx, async (session) => {
          const filter = { _id: before._id, version: current === 0 ? { $in: [null, 0] } : current };
          const doc = await Dashboard.findOneAndUpdate(filter, { $set: { ...set, version: next }, $inc: { revision: 1 } }, { returnDocument: 'after', session }).lean<DashboardDoc>();
          if (!doc) throw new Moved();
          const changes = summaryOf(diffDashboards(presentContent(before), presentContent(doc), current, next, nameOf).sentences);
          const docs = [versionDoc(id, next, doc, opts.summary?.(changes) ?? changes, opts, doc.updatedAt)];
          // A dashboard saved before versions were kept: its state before this first save is kept too, as version 0.
          if (current === 0) docs.unshift(versionDoc(id, 0, before, 'As it was before versions were kept', { author: { kind: 'system' } }, before.updatedAt));
          // Straight to the driver: one insert command, no casting of what is built here.
          if (docs.length === 1) await rawVersions(ctx).insertOne(docs[0], { session });
          else await rawVersions(ctx).insertMany(docs, { session, ordered: true });
          return doc;
        });
        return { before, after };
      } catch (e) {
        if (!(e instanceof Moved)) throw e;
        // Another process saved between the read and the write.
        if (opts.ifMatch !== undefined || attempt >= 4) {
          const now = await Dashboard.findById(id).lean<DashboardDoc>();
          if (!now) throw NotFoundError(`Dashboard ${id}`);
          throw new VersionConflictError(await currentVersionOf(ctx, now), opts.ifMatch ?? current);
        }
      }
    }
  });
}
