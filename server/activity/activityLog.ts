import type { AppContext, DataSourceDoc, IngestState, RouteAboutState, RouteActivity } from '../core';
import { actorOf, type ActivityInput, type ActivityLog, type Actor, activityModel, type ActivityEntryDoc, cachedSource } from '../core';
import { AsyncLocalStorage } from 'node:async_hooks';
import mongoose, { type Model } from 'mongoose';
import type { Context } from 'koa';
import type { ActivityEntryDto } from '@common/schemas/activity';
import { presentActivity } from './presentActivity';
import { MinuteSummaries, type MinuteCounts, type SummaryHead } from './minuteSummaries';

/** How long entries wait to be written together, and the most written at once. */
const FLUSH_MS = 250;
const BATCH = 500;
/** How often ingest summaries are written while only they have news (the live feed follows them). */
const SUMMARY_FLUSH_MS = 5_000;
/** At most one "dropped" warning per this long. */
const DROP_WARN_MS = 60_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * The activity log: admin actions, ingest requests, refused credentials and syncs, with time and
 * client address; kept ACTIVITY_RETENTION_DAYS by a TTL index. Secrets never enter it: requests are
 * described by their route, the names of the fields they changed and counts, never by their bodies.
 */
export async function startActivityLog(app: AppContext): Promise<ActivityLog> {
  const model: Model<ActivityEntryDoc> = await activityModel(app.conn, app.config.ACTIVITY_RETENTION_DAYS, (m, e) => app.log.error(m, e));
  const request = new AsyncLocalStorage<{ address: string | null; actor?: Actor }>();
  // The queue is bounded: entries (and open ingest summaries) past ACTIVITY_MAX_QUEUED are dropped,
  // counted and logged — a database that cannot keep up never grows the process's memory.
  const max = app.config.ACTIVITY_MAX_QUEUED;
  const pending: ActivityEntryDoc[] = [];
  const summaries = new MinuteSummaries(max);
  let dropped = 0;
  let droppedSinceWarning = 0;
  let lastWarning = 0;
  const drop = (n: number) => {
    dropped += n;
    droppedSinceWarning += n;
    if (Date.now() - lastWarning < DROP_WARN_MS) return;
    app.log.warn(`activity log: ${droppedSinceWarning} entries dropped (${dropped} since start): the database does not keep up with ${max} queued (ACTIVITY_MAX_QUEUED)`);
    lastWarning = Date.now();
    droppedSinceWarning = 0;
  };
  let timer: NodeJS.Timeout | null = null;
  /** One write at a time; what arrives meanwhile waits in `pending` (bounded), not in a chain of batches. */
  let writing: Promise<void> | null = null;
  let again = false;
  /** Ingest entries still looking up their sources (awaited on close). */
  const inFlight = new Set<Promise<void>>();

  const write = async () => {
    do {
      again = false;
      const batch = pending.splice(0, BATCH);
      const { ops, entries } = summaries.take();
      try {
        if (batch.length) await model.insertMany(batch, { ordered: false });
        if (ops.length) await model.bulkWrite(ops, { ordered: false });
        for (const entry of entries) app.events.emit('activity.recorded', { entry: presentActivity(entry) });
      } catch (e) {
        app.log.error('activity log: write failed', e);
        drop(batch.length + ops.length);
        // What is still pending waits for the next entry's flush: no retry loop against a failing database.
        return;
      }
    } while (again || pending.length);
  };
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (writing) {
      // The write under way takes what is pending when it finishes; this caller waits for that.
      again = true;
      return writing;
    }
    writing = write().finally(() => (writing = null));
    return writing;
  };
  const schedule = (ms: number) => {
    if (pending.length >= BATCH) void flush();
    else timer ??= setTimeout(() => void flush(), ms);
  };

  const countPerMinute = (input: Omit<ActivityInput, 'summary'>, counts: MinuteCounts) => {
    const head = {
      objectType: null, objectId: null, objectName: null, credential: null, keyHint: null, actor: null, userId: null, address: null, ...input, details: input.details ?? {},
    } as SummaryHead;
    if (pending.length + summaries.size >= max || !summaries.add(head, counts)) return drop(1);
    schedule(SUMMARY_FLUSH_MS);
  };

  const record = (input: ActivityInput) => {
    const store = request.getStore();
    const doc = {
      _id: new mongoose.Types.ObjectId(),
      at: new Date(),
      objectType: null, objectId: null, objectName: null, credential: null, keyHint: null, details: {}, actor: null, userId: null,
      address: store?.address ?? null,
      ...store?.actor,
      ...input,
    } as ActivityEntryDoc;
    if (pending.length + summaries.size >= max) return drop(1);
    pending.push(doc);
    app.events.emit('activity.recorded', { entry: presentActivity(doc) });
    schedule(FLUSH_MS);
  };

  async function ingestEntry(ctx: Context, address: string | null, status: number) {
    const who = (ctx.state as Partial<IngestState>).ingestCredential;
    const answer = isObject(ctx.body) ? ctx.body : {};
    const sources = Array.isArray(answer.sources) ? answer.sources.filter(isObject) : [];
    const named = sources.map((s) => str(s.sourceId)).filter((s): s is string => s !== null);
    // A refused request has no answer naming its source: its URL may (the source's own URL).
    const sourceIds = named.length ? named : [(ctx as Context & { params?: Record<string, string> }).params?.sourceId].filter((s): s is string => Boolean(s));
    // Cached (sourceCache): a burst of single-record ingests reads no source per request here either.
    const found = await Promise.all(sourceIds.map((id) => cachedSource(app, 'ref', id, () => app.conn.models.DataSource.findOne({ sourceId: id }).lean<DataSourceDoc>())));
    const docs = found.filter((d): d is DataSourceDoc => d !== null);
    const first = docs[0];
    const count = (k: string) => (typeof answer[k] === 'number' ? (answer[k] as number) : 0);
    const ok = status < 400;
    const store = request.getStore();
    const byKey = who && !who.admin;
    countPerMinute(
      {
        kind: 'ingest', category: 'ingest', objectType: 'dataSource',
        objectId: first ? String(first._id) : null,
        objectName: docs.map((d) => d.name).join(', ') || null,
        address,
        credential: byKey ? 'ingestKey' : (store?.actor?.credential ?? null),
        actor: byKey ? `ingest key ${first?.ingestKeyHint ?? ''}`.trim() : (store?.actor?.actor ?? null),
        userId: byKey ? null : (store?.actor?.userId ?? null),
        keyHint: byKey ? (first?.ingestKeyHint ?? null) : null,
        details: { sources: sourceIds },
      },
      { requests: 1, records: count('received'), inserted: count('inserted'), updated: count('updated'), rejected: count('rejected'), refused: ok ? 0 : 1 },
    );
  }

  /** The subject of a summary: the person's name, or "Admin" for the admin token. */
  const who = (_ctx?: Context) => {
    const a = request.getStore()?.actor;
    return a && a.userId ? a.actor : 'Admin';
  };

  function adminEntry(ctx: Context & { params?: Record<string, string> }, address: string | null, a: RouteActivity) {
    const answer = isObject(ctx.body) ? ctx.body : {};
    const body = isObject(ctx.request.body) ? ctx.request.body : {};
    const link = isObject(answer.link) ? answer.link : {};
    const objectId =
      a.idFrom === 'answer' ? str(answer.id)
      : a.idFrom === 'answer:link' ? str(link.id)
      : a.idFrom === 'param:id' ? (ctx.params?.id ?? null)
      : a.idFrom === 'param:linkId' ? (ctx.params?.linkId ?? null)
      : a.idFrom === 'body:integrationId' ? str(body.integrationId)
      : null;
    const objectName = a.idFrom === 'answer:link' ? str(link.label) : str(answer.name) ?? str(answer.label);
    const details: ActivityEntryDto['details'] = {};
    // Field names only: values may be secrets (OAuth client secrets) or large.
    if (ctx.method === 'PATCH' || ctx.method === 'PUT') details.fields = Object.keys(body).sort();
    if (a.objectType === 'shareLink' && ctx.params?.id) details.dashboardId = ctx.params.id;
    record({
      kind: a.kind,
      category: a.kind.startsWith('sync.') ? 'sync' : 'admin',
      objectType: a.objectType,
      objectId,
      objectName,
      summary: `${who(ctx)} ${a.verb}${objectName ? ` "${objectName}"` : objectId ? ` ${objectId}` : ''}`,
      address,
      keyHint: a.kind === 'dataSource.keyRotated' ? str(answer.ingestKeyHint) : null,
      details,
    });
  }

  const off = [
    app.events.on('dashboard.changed', ({ dashboard, wasPublished }) => {
      if (dashboard.isPublished === wasPublished) return;
      const verb = dashboard.isPublished ? 'published' : 'unpublished';
      record({ kind: `dashboard.${verb}`, category: 'admin', objectType: 'dashboard', objectId: dashboard.id, objectName: dashboard.name, summary: `${who()} ${verb} dashboard "${dashboard.name}"` });
    }),
    app.events.on('sync.completed', (e) => {
      record({
        kind: 'sync.completed', category: 'sync', objectType: 'integration', objectId: e.integrationId,
        summary: `Sync completed: ${e.ticketsSynced} tickets, ${e.usersSynced} users, ${e.organizationsSynced} organizations, ${e.ticketsDeleted} deleted${e.errors.length ? `, ${e.errors.length} errors` : ''}`,
        details: { ticketsSynced: e.ticketsSynced, usersSynced: e.usersSynced, organizationsSynced: e.organizationsSynced, ticketsDeleted: e.ticketsDeleted, errors: e.errors.length },
      });
    }),
    app.events.on('sync.failed', (e) => {
      record({ kind: 'sync.failed', category: 'sync', objectType: 'integration', objectId: e.integrationId, summary: `Sync failed: ${e.message}` });
    }),
  ];

  return {
    record,
    countPerMinute,
    identify(principal) {
      const store = request.getStore();
      if (store) store.actor = actorOf(principal);
    },
    signInFailed(ctx, audience) {
      const what = audience === 'ingest' ? 'ingest credential' : 'admin token';
      record({ kind: 'auth.failed', category: 'auth', summary: `Refused ${what} on ${ctx.method} ${ctx.path}`, address: ctx.ip || null, details: { audience, method: ctx.method, path: ctx.path } });
    },
    middleware: () => async (ctx, next) => {
      const address = ctx.ip || null;
      let error: unknown = null;
      const store: { address: string | null; actor?: Actor } = { address };
      try {
        await request.run(store, next);
      } catch (e) {
        error = e;
      }
      // What the route said a successful call means, next to its guard (about); reads say nothing.
      const meaning = (ctx.state as RouteAboutState).routeAbout?.activity;
      if (meaning && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        const status = error ? ((error as { status?: number }).status ?? 500) : ctx.status;
        // Ingest: summarised per source, credential and minute (counts and the credential's kind,
        // never a key nor the URL's query). A refused credential or a rate limit is logged by the guard, not twice.
        if (meaning === 'ingest') {
          if (status !== 401 && status !== 429) {
            const p = request.run(store, () => ingestEntry(ctx, address, status)).catch((e) => app.log.error('activity log: ingest entry failed', e));
            inFlight.add(p);
            void p.finally(() => inFlight.delete(p));
          }
        } else if (!error && status < 400) request.run(store, () => adminEntry(ctx, address, meaning));
      }
      if (error) throw error;
    },
    async list(q) {
      await Promise.all(inFlight);
      await flush();
      const filter: Record<string, unknown> = {};
      if (q.category) filter.category = q.category;
      if (q.kind) filter.kind = q.kind;
      if (q.objectType) filter.objectType = q.objectType;
      if (q.objectId) filter.objectId = q.objectId;
      if (q.userId) filter.userId = q.userId;
      if (q.before) filter.at = { $lt: new Date(q.before) };
      const docs = await model.find(filter).sort({ at: -1, _id: -1 }).limit(q.limit).lean<ActivityEntryDoc[]>();
      return docs.map(presentActivity);
    },
    flush,
    queued: () => pending.length + summaries.unwritten,
    dropped: () => dropped,
    async close() {
      off.forEach((fn) => fn());
      await Promise.all(inFlight);
      await flush();
    },
  };
}
