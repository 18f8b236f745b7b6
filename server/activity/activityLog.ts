import type { AppContext, DataSourceDoc, Principal, RouteActivity, RouteAnswered } from '../core';
import { type ActivityInput, type ActivityLog, activityModel, type ActivityEntryDoc, actingNow, cachedSource } from '../core';
import mongoose, { type Model } from 'mongoose';
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

/** Who acts: the person (name or email), "admin token", or an ingest key. */
interface Actor {
  actor: string;
  userId: string | null;
  credential: NonNullable<ActivityEntryDto['credential']>;
}

const actorOf = (p: Principal): Actor =>
  p.user
    ? { actor: p.user.name || p.user.email, userId: p.user.id, credential: p.via === 'apiToken' ? 'apiToken' : 'session' }
    : { actor: 'admin token', userId: null, credential: 'admin' };

/** The actor of the request being handled, once a guard named its principal. */
const actingActor = (): Actor | undefined => {
  const p = actingNow()?.principal;
  return p ? actorOf(p) : undefined;
};

/**
 * The activity log: admin actions, ingest requests, refused credentials and syncs, with time and
 * client address; kept ACTIVITY_RETENTION_DAYS by a TTL index. Secrets never enter it: requests are
 * described by their route, the names of the fields they changed and counts, never by their bodies.
 * It writes only what is announced on the app's event bus; no feature calls it to record.
 */
export async function startActivityLog(app: AppContext): Promise<ActivityLog> {
  const model: Model<ActivityEntryDoc> = await activityModel(app.conn, app.config.ACTIVITY_RETENTION_DAYS, (m, e) => app.log.error(m, e));
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
    const doc = {
      _id: new mongoose.Types.ObjectId(),
      at: new Date(),
      objectType: null, objectId: null, objectName: null, credential: null, keyHint: null, details: {}, actor: null, userId: null,
      address: actingNow()?.address ?? null,
      ...actingActor(),
      ...input,
    } as ActivityEntryDoc;
    if (pending.length + summaries.size >= max) return drop(1);
    pending.push(doc);
    app.events.emit('activity.recorded', { entry: presentActivity(doc) });
    schedule(FLUSH_MS);
  };

  async function ingestEntry(e: RouteAnswered) {
    const who = e.ingestCredential;
    const answer = isObject(e.answer) ? e.answer : {};
    const sources = Array.isArray(answer.sources) ? answer.sources.filter(isObject) : [];
    const named = sources.map((s) => str(s.sourceId)).filter((s): s is string => s !== null);
    // A refused request has no answer naming its source: its URL may (the source's own URL).
    const sourceIds = named.length ? named : [e.params.sourceId].filter((s): s is string => Boolean(s));
    // Cached (sourceCache): a burst of single-record ingests reads no source per request here either.
    const found = await Promise.all(sourceIds.map((id) => cachedSource(app, 'ref', id, () => app.conn.models.DataSource.findOne({ sourceId: id }).lean<DataSourceDoc>())));
    const docs = found.filter((d): d is DataSourceDoc => d !== null);
    const first = docs[0];
    const count = (k: string) => (typeof answer[k] === 'number' ? (answer[k] as number) : 0);
    const ok = e.status < 400;
    const actor = e.principal ? actorOf(e.principal) : undefined;
    const byKey = who && !who.admin;
    countPerMinute(
      {
        kind: 'ingest', category: 'ingest', objectType: 'dataSource',
        objectId: first ? String(first._id) : null,
        objectName: docs.map((d) => d.name).join(', ') || null,
        address: e.address,
        credential: byKey ? 'ingestKey' : (actor?.credential ?? null),
        actor: byKey ? `ingest key ${first?.ingestKeyHint ?? ''}`.trim() : (actor?.actor ?? null),
        userId: byKey ? null : (actor?.userId ?? null),
        keyHint: byKey ? (first?.ingestKeyHint ?? null) : null,
        details: { sources: sourceIds },
      },
      { requests: 1, records: count('received'), inserted: count('inserted'), updated: count('updated'), rejected: count('rejected'), refused: ok ? 0 : 1 },
    );
  }

  /** The subject of a summary: the person's name, or "Admin" for the admin token. */
  const who = () => {
    const a = actingActor();
    return a && a.userId ? a.actor : 'Admin';
  };

  function adminEntry(e: RouteAnswered, a: RouteActivity) {
    const answer = isObject(e.answer) ? e.answer : {};
    const body = isObject(e.requestBody) ? e.requestBody : {};
    const link = isObject(answer.link) ? answer.link : {};
    const objectId =
      a.idFrom === 'answer' ? str(answer.id)
      : a.idFrom === 'answer:link' ? str(link.id)
      : a.idFrom === 'param:id' ? (e.params.id ?? null)
      : a.idFrom === 'param:linkId' ? (e.params.linkId ?? null)
      : a.idFrom === 'body:integrationId' ? str(body.integrationId)
      : null;
    const objectName = a.idFrom === 'answer:link' ? str(link.label) : str(answer.name) ?? str(answer.label);
    const details: ActivityEntryDto['details'] = {};
    // Field names only: values may be secrets (OAuth client secrets) or large.
    if (e.method === 'PATCH' || e.method === 'PUT') details.fields = Object.keys(body).sort();
    if (a.objectType === 'shareLink' && e.params.id) details.dashboardId = e.params.id;
    record({
      kind: a.kind,
      category: a.kind.startsWith('sync.') ? 'sync' : 'admin',
      objectType: a.objectType,
      objectId,
      objectName,
      summary: `${who()} ${a.verb}${objectName ? ` "${objectName}"` : objectId ? ` ${objectId}` : ''}`,
      address: e.address,
      keyHint: a.kind === 'dataSource.keyRotated' ? str(answer.ingestKeyHint) : null,
      details,
    });
  }

  const off = [
    app.events.on('activity.happened', record),
    app.events.on('activity.counted', ({ head, counts }) => countPerMinute(head, counts)),
    // What a route said a successful call means, next to its guard (about); the HTTP layer announces it after the answer.
    app.events.on('route.answered', (e) => {
      if (e.activity !== 'ingest') return adminEntry(e, e.activity);
      // Ingest: summarised per source, credential and minute (counts and the credential's kind, never a key nor the URL's query).
      const p = ingestEntry(e).catch((err) => app.log.error('activity log: ingest entry failed', err));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }),
    app.events.on('dashboard.changed', ({ dashboard, wasPublished }) => {
      if (dashboard.isPublished === wasPublished) return;
      const verb = dashboard.isPublished ? 'published' : 'unpublished';
      record({ kind: `dashboard.${verb}`, category: 'admin', objectType: 'dashboard', objectId: dashboard.id, objectName: dashboard.name, summary: `${who()} ${verb} dashboard "${dashboard.name}"` });
    }),
    app.events.on('sync.completed', (e) => {
      // Zendesk counts its kinds; every other provider counts records and pages.
      const zendesk = e.ticketsSynced !== undefined;
      const counts = zendesk
        ? `${e.ticketsSynced} tickets, ${e.usersSynced ?? 0} users, ${e.organizationsSynced ?? 0} organizations, ${e.ticketsDeleted ?? 0} deleted`
        : `${e.recordsProcessed} records in ${e.pagesProcessed} pages${e.rejected ? `, ${e.rejected} rejected` : ''}`;
      const details: Record<string, number> = zendesk
        ? { ticketsSynced: e.ticketsSynced ?? 0, usersSynced: e.usersSynced ?? 0, organizationsSynced: e.organizationsSynced ?? 0, ticketsDeleted: e.ticketsDeleted ?? 0, errors: e.errors.length }
        : { records: e.recordsProcessed, pages: e.pagesProcessed, rejected: e.rejected, errors: e.errors.length };
      record({
        kind: 'sync.completed', category: 'sync', objectType: 'integration', objectId: e.integrationId,
        summary: `Sync completed: ${counts}${e.errors.length ? `, ${e.errors.length} errors` : ''}`,
        details,
      });
    }),
    app.events.on('sync.failed', (e) => {
      record({ kind: 'sync.failed', category: 'sync', objectType: 'integration', objectId: e.integrationId, summary: `Sync failed: ${e.message}` });
    }),
  ];

  return {
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
