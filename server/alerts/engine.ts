import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { AlertState, AlertWebhookBody, TileAlertState } from '@common/schemas/alert';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { type AppContext, type DashboardDoc, Slicer } from '../core';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { AlertDoc, AlertModels } from './models';
import type { AlertOutbox } from './outbox';
import { breaks, conditionText, recovered, RuleRun } from './rule';
import { WatchedSource, type HeldRecord, type SourceEvent } from './watchedSource';

/** At most this many evaluations per second per rule, whatever the ingest rate: changes in between are coalesced. */
const MIN_EVAL_GAP_MS = 250;
/** How often the rules' last values are saved for the console. */
const SAVE_VALUES_MS = 5_000;
/** A source past the cap is counted again at most this often while records leave it. */
const RECHECK_CAP_MS = 1_000;

/** Why a rule on a source past ALERT_MAX_RECORDS is not evaluated (the Alerts screen shows it). */
export const tooManyRecords = (max: number) =>
  `Too many records to evaluate live: the data source holds more than ${max.toLocaleString('en-US')} (ALERT_MAX_RECORDS). The alert is not evaluated, its state stays as it was, until the source holds fewer.`;

/** The delivery of one change of a rule to one channel: the same id whichever process writes it, however often. */
export function deliveryId(alertId: string, seq: number, kind: string, channelId: string): mongoose.Types.ObjectId {
  return new mongoose.Types.ObjectId(crypto.createHash('sha256').update(`${alertId}/${seq}/${kind}/${channelId}`).digest('hex').slice(0, 24));
}

/** What the engine tells the rest of the server: a tied tile's state changed (and the rule's filters, for locked share links). */
export type TileStateListener = (s: TileAlertState, ruleFilters: WidgetFilter[]) => void;

/**
 * Evaluates the rules this process holds the lease of. Every write to a source (any path: ingest,
 * source URL, import, sync, record management, retention — they all announce records.upserted /
 * records.removed) is folded into the rules' totals at once; the rule is evaluated at most every
 * 250 ms. Timers only for what writes cannot see: no data, a sliding range, forSeconds, repeats.
 * A state change writes its deliveries to the outbox, then the state, then kicks the outbox.
 */
export class AlertEngine {
  private readonly sources = new Map<string, WatchedSource>();
  private readonly loading = new Map<string, Promise<WatchedSource>>();
  readonly rules = new Map<string, RuleRun>();
  private readonly byTile = new Map<string, RuleRun>();
  /** Rules this process holds but does not evaluate: their source is past the cap. */
  private readonly parked = new Map<string, AlertDoc>();
  private readonly rechecks = new Map<string, NodeJS.Timeout>();
  private saveTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Rules to evaluate, one after another (evaluateDue), and whether that is under way. */
  private readonly dueRuns = new Set<RuleRun>();
  /** Rules being started, with their configuration version. */
  private readonly starting = new Map<string, number>();
  private evaluating = false;
  tileListener: TileStateListener = () => {};
  /** Evaluations made (tests and the benchmark read it). */
  evaluations = 0;

  constructor(
    private readonly app: AppContext,
    private readonly models: AlertModels,
    private readonly outbox: AlertOutbox,
    readonly owner: string,
  ) {
    this.saveTimer = setInterval(() => void this.saveValues(), SAVE_VALUES_MS);
    this.saveTimer.unref();
  }

  private source(id: string): Promise<WatchedSource> {
    const held = this.sources.get(id);
    if (held?.ready) return Promise.resolve(held);
    let p = this.loading.get(id);
    if (!p) {
      const s = new WatchedSource(id, this.app.config.ALERT_MAX_RECORDS);
      this.sources.set(id, s);
      p = s.load(this.app).then(() => s).finally(() => this.loading.delete(id));
      this.loading.set(id, p);
    }
    return p;
  }

  /** Starts (or restarts, after a change of the rule) evaluating a rule this process holds. */
  async hold(fresh: AlertDoc): Promise<void> {
    const id = String(fresh._id);
    // Being started (its source read, its records counted): the lease's round sees it held at this version.
    this.starting.set(id, fresh.configVersion);
    try {
      await this.start(id, fresh);
    } finally {
      if (this.starting.get(id) === fresh.configVersion) this.starting.delete(id);
    }
  }

  private async start(id: string, fresh: AlertDoc): Promise<void> {
    let doc = fresh;
    const held = this.rules.get(id);
    if (held) {
      // A change being written is newer than the document just read: keep its state.
      await held.busy;
      doc = { ...fresh, state: held.doc.state, stateSince: held.doc.stateSince, seq: Math.max(fresh.seq, held.doc.seq), lastNotifiedAt: held.doc.lastNotifiedAt };
    }
    this.drop(id);
    const src = await this.source(doc.dataSourceId);
    if (this.closed || !src.meta) return;
    if (src.overCap) return this.park(doc);
    if (doc.problem) await this.setProblem(doc, null);
    const now = Date.now();
    const run = new RuleRun(doc, src.meta, now);
    // Held from now (writes meanwhile wait in the run), counted in slices from the records as they are now.
    this.rules.set(id, run);
    if (doc.widget) this.byTile.set(`${doc.widget.dashboardId}/${doc.widget.widgetId}`, run);
    const newest = await run.countInSlices(src.meta, [...src.records.values()], now, new Slicer(), () => this.rules.get(id) === run && !this.closed);
    if (newest === null) return;
    // No data since the newest record passing the filters (or since now, when there is none yet).
    if (newest) run.lastDataAt = Math.min(now, newest);
    if (doc.noDataSeconds !== null && !newest) run.lastDataAt = Math.max(new Date(doc.createdAt).getTime(), now - doc.noDataSeconds * 1000 + 1000);
    this.due(run);
    // Taken over (a restart, another process's lease ran out) while firing: the repeats go on from the last one sent.
    if (run.state === 'firing' && !run.busy) this.scheduleRepeat(run);
  }

  /** Counts a rule again (the source's types or time field changed), in slices; its state stays. */
  private async recount(run: RuleRun, meta: DataSourceDto, records: HeldRecord[]): Promise<void> {
    const id = String(run.doc._id);
    const counted = await run.countInSlices(meta, records, Date.now(), new Slicer(), () => this.rules.get(id) === run && !this.closed);
    if (counted !== null) this.due(run);
  }

  /** Evaluates a rule soon: rules due are evaluated one after another, the loop given a turn between slices. */
  private due(run: RuleRun): void {
    this.dueRuns.add(run);
    if (this.evaluating) return;
    this.evaluating = true;
    setImmediate(() => {
      void this.evaluateDue()
        .catch((e: unknown) => this.app.log.error('alerts: could not evaluate the rules', e))
        .finally(() => {
          this.evaluating = false;
          if (this.dueRuns.size) this.due(this.dueRuns.values().next().value!);
        });
    });
  }

  private async evaluateDue(): Promise<void> {
    const slicer = new Slicer();
    for (const run of this.dueRuns) {
      this.dueRuns.delete(run);
      // A write's changes folded in (in slices), then the one evaluation: a few milliseconds whatever the source's size.
      await run.foldInSlices(slicer);
      this.evaluate(run);
      await slicer.tick();
    }
  }

  /** The configuration version of a rule this process holds (evaluated or parked), undefined when it holds none. */
  heldVersion(id: string): number | undefined {
    return (this.rules.get(id)?.doc ?? this.parked.get(id))?.configVersion ?? this.starting.get(id);
  }

  /** Every rule this process holds, evaluated or parked. */
  heldIds(): string[] {
    return [...this.rules.keys(), ...this.parked.keys()];
  }

  /** Holds a rule without evaluating it (its source is past the cap), and says why on the rule. */
  private park(doc: AlertDoc): void {
    const id = String(doc._id);
    // Parked first, so dropping the run keeps the source watched (its removals bring the rule back).
    this.parked.set(id, doc);
    this.stopRun(id);
    const problem = tooManyRecords(this.app.config.ALERT_MAX_RECORDS);
    if (doc.problem !== problem) void this.setProblem(doc, problem).catch((e: unknown) => this.app.log.error(`alerts: could not mark alert ${id} as not evaluated`, e));
  }

  private async setProblem(doc: AlertDoc, problem: string | null): Promise<void> {
    await this.models.Alert.updateOne({ _id: doc._id, 'lease.owner': this.owner }, { $set: { problem } });
    doc.problem = problem;
  }

  /** Records left a source past the cap: count it again (at most once a second), and evaluate its rules if it is back under. */
  private recheck(dataSourceId: string): void {
    if (this.rechecks.has(dataSourceId) || this.closed) return;
    const t = setTimeout(() => {
      this.rechecks.delete(dataSourceId);
      if (this.sources.get(dataSourceId)?.overCap) this.sources.delete(dataSourceId);
      // One after another: a rule taken up while another's load is under way would let go of the source being read.
      const docs = [...this.parked.values()].filter((d) => d.dataSourceId === dataSourceId);
      void (async () => {
        for (const doc of docs) await this.hold(doc);
      })().catch((e: unknown) => this.app.log.error(`alerts: could not evaluate the rules of data source ${dataSourceId} again`, e));
    }, RECHECK_CAP_MS);
    t.unref();
    this.rechecks.set(dataSourceId, t);
  }

  /**
   * Counts every rule again from the database: writes of other processes may have been missed
   * (Redis was lost for a while). States stay as they are.
   */
  async recountAll(): Promise<void> {
    const docs = [...[...this.rules.values()].map((r) => r.doc), ...this.parked.values()];
    this.sources.clear();
    for (const doc of docs) await this.hold(doc);
  }

  /** Stops evaluating a rule (removed, changed, or its lease went to another process). */
  drop(id: string): void {
    const doc = this.rules.get(id)?.doc ?? this.parked.get(id);
    if (!doc) return;
    this.stopRun(id);
    this.parked.delete(id);
    const stillWatched = [...this.rules.values()].some((r) => r.doc.dataSourceId === doc.dataSourceId) || [...this.parked.values()].some((d) => d.dataSourceId === doc.dataSourceId);
    if (!stillWatched) this.sources.delete(doc.dataSourceId);
  }

  private stopRun(id: string): void {
    const run = this.rules.get(id);
    if (!run) return;
    run.stop();
    this.dueRuns.delete(run);
    this.rules.delete(id);
    if (run.doc.widget) this.byTile.delete(`${run.doc.widget.dashboardId}/${run.doc.widget.widgetId}`);
  }

  /** A write (or metadata change) of a source, from this process or another. */
  applySourceEvent(e: SourceEvent): void {
    const id = e.name === 'datasource.changed' ? e.payload.dataSource.id : e.payload.dataSourceId;
    const src = this.sources.get(id);
    if (!src) return;
    const changes = src.apply(e);
    const runs = [...this.rules.values()].filter((r) => r.doc.dataSourceId === id);
    if (src.overCap) {
      for (const r of runs) this.park(r.doc);
      if (e.name === 'records.removed') this.recheck(id);
      return;
    }
    if (e.name === 'datasource.changed') {
      // Types or the time field changed: the rules count again under the new ones (their state stays).
      const meta = src.meta;
      if (!src.ready || !meta) return;
      const stale = runs.filter((r) => r.needsRecount(meta));
      const snapshot = stale.length ? [...src.records.values()] : [];
      for (const r of stale) void this.recount(r, meta, snapshot).catch((err: unknown) => this.app.log.error(`alerts: could not count alert ${String(r.doc._id)} again`, err));
      return;
    }
    if (!changes?.length) return;
    const now = Date.now();
    for (const run of runs) {
      // Folded in before the next evaluation (in slices: a large write is many changes).
      for (const c of changes) run.pending.push(c);
      if (changes.some((c) => c.after && run.passes(c.after))) run.lastDataAt = now;
      this.schedule(run);
    }
  }

  /** Evaluates at once when the last evaluation is old enough, else once the gap has passed (changes meanwhile coalesce). */
  private schedule(run: RuleRun): void {
    if (run.timers.has('coalesce')) return;
    const at = run.lastEvalAt + MIN_EVAL_GAP_MS;
    if (Date.now() >= at && !run.busy) this.due(run);
    else run.timer('coalesce', at, () => this.due(run));
  }

  private evaluate(run: RuleRun): void {
    // Being counted anew: evaluated when that is done.
    if (this.closed || this.rules.get(String(run.doc._id)) !== run || run.counting) return;
    if (run.busy) {
      run.timer('coalesce', Date.now() + MIN_EVAL_GAP_MS, () => this.due(run));
      return;
    }
    const now = Date.now();
    run.lastEvalAt = now;
    run.evaluations++;
    this.evaluations++;
    const doc = run.doc;
    const value = run.value(now);
    if (value !== run.lastValue) {
      run.lastValue = value;
      run.dirty = true;
    }
    let breaking: boolean;
    if (doc.noDataSeconds !== null) {
      const quietUntil = run.lastDataAt + doc.noDataSeconds * 1000;
      breaking = now >= quietUntil;
      if (!breaking) run.timer('noData', quietUntil, () => this.due(run));
    } else {
      breaking = run.state === 'firing' ? !recovered(doc, value) : breaks(doc.condition!, value);
    }
    // A sliding range moves by itself: evaluate again when it next does.
    const next = run.agg.nextChange();
    if (next !== null) run.timer('slide', next + 5, () => this.due(run));

    if (run.state === 'ok') {
      if (!breaking) {
        run.breakingSince = null;
        run.timer('hold', null, () => {});
        return;
      }
      run.breakingSince ??= now;
      const fireAt = run.breakingSince + doc.forSeconds * 1000;
      if (now < fireAt) {
        if (!run.timers.has('hold')) run.timer('hold', fireAt, () => this.due(run));
        return;
      }
      this.change(run, 'firing', value, now);
    } else if (!breaking) {
      run.breakingSince = null;
      this.change(run, 'ok', value, now);
    }
  }

  private change(run: RuleRun, to: AlertState, value: number | null, now: number): void {
    const from = run.state;
    run.state = to;
    run.stateSince = now;
    run.timer('repeat', null, () => {});
    run.busy = this.writeChange(run, from, to, value, now)
      .catch((e: unknown) => this.app.log.error(`alerts: could not record the state change of alert ${String(run.doc._id)}`, e))
      .finally(() => {
        run.busy = null;
      });
  }

  /** The change's deliveries, then the state (only while this process holds the rule), the history, the tile. */
  private async writeChange(run: RuleRun, from: AlertState, to: AlertState, value: number | null, now: number): Promise<void> {
    const { Alert, AlertChange } = this.models;
    const doc = run.doc;
    const id = String(doc._id);
    const seq = doc.seq + 1;
    const muted = doc.mutedUntil !== null && new Date(doc.mutedUntil).getTime() > now;
    const deliveryIds = muted ? [] : await this.enqueue(run, to === 'firing' ? 'firing' : 'resolved', value, seq, now);
    const set: Record<string, unknown> = { state: to, stateSince: new Date(now), lastValue: value, lastEvaluatedAt: new Date(now), seq };
    if (to === 'firing' && !muted) set.lastNotifiedAt = new Date(now);
    const res = await Alert.updateOne({ _id: doc._id, 'lease.owner': this.owner }, { $set: set });
    if (res.matchedCount === 0) {
      // Another process holds it now (or it was removed): it decides; these messages are not ours to send.
      await this.withdraw(deliveryIds);
      this.drop(id);
      return;
    }
    Object.assign(doc, set);
    run.lastNotifiedAt = to === 'firing' && !muted ? now : run.lastNotifiedAt;
    run.dirty = false;
    this.outbox.kick();
    await AlertChange.create({ alertId: id, at: new Date(now), from, to, value });
    this.app.events.emit('activity.happened', {
      kind: to === 'firing' ? 'alert.firing' : 'alert.resolved', category: 'alert', objectType: 'alert', objectId: id, objectName: doc.name, actor: 'alerts',
      summary: `Alert "${doc.name}" ${to === 'firing' ? 'is firing' : 'resolved'}: ${value ?? 'no value'} (${conditionText(doc)})${muted ? ' — muted, nothing sent' : ''}`,
      details: { value, muted },
    });
    if (doc.widget) this.tileListener({ ...doc.widget, state: to, since: to === 'firing' ? new Date(now).toISOString() : null }, doc.filters);
    if (to === 'firing') this.scheduleRepeat(run);
  }

  /** While firing, "firing" again every repeatMinutes. */
  private scheduleRepeat(run: RuleRun): void {
    const minutes = run.doc.repeatMinutes;
    if (!minutes || run.state !== 'firing') return;
    const at = (run.lastNotifiedAt ?? run.stateSince) + minutes * 60_000;
    run.timer('repeat', at, () => {
      if (run.state !== 'firing' || this.rules.get(String(run.doc._id)) !== run) return;
      const now = Date.now();
      const value = run.value(now);
      run.busy = this.repeat(run, value, now)
        .catch((e: unknown) => this.app.log.error(`alerts: could not repeat alert ${String(run.doc._id)}`, e))
        .finally(() => {
          run.busy = null;
        });
    });
  }

  private async repeat(run: RuleRun, value: number | null, now: number): Promise<void> {
    const doc = run.doc;
    const muted = doc.mutedUntil !== null && new Date(doc.mutedUntil).getTime() > now;
    const seq = doc.seq + 1;
    // The messages first, as for a change: a successor repeating under the same number writes nothing new.
    const ids = muted ? [] : await this.enqueue(run, 'firing', value, seq, now);
    const res = await this.models.Alert.updateOne({ _id: doc._id, 'lease.owner': this.owner }, { $set: { seq, lastNotifiedAt: new Date(now), lastValue: value } });
    if (res.matchedCount === 0) {
      await this.withdraw(ids);
      return this.drop(String(doc._id));
    }
    doc.seq = seq;
    run.lastNotifiedAt = now;
    this.outbox.kick();
    this.scheduleRepeat(run);
  }

  /**
   * Writes one delivery per channel of the rule to the outbox; answers their ids. A change's
   * delivery has the id of its rule, change number, kind and channel, and is written only if absent:
   * a process that died after writing the deliveries but before the state makes its successor decide
   * the same change again, and that writes nothing new — the message goes once.
   */
  async enqueue(run: { doc: AlertDoc }, kind: 'firing' | 'resolved' | 'test', value: number | null, seq: number, now: number): Promise<mongoose.Types.ObjectId[]> {
    const doc = run.doc;
    if (!doc.channels.length) return [];
    const body = JSON.stringify(await this.messageBody(doc, kind, value, now));
    const rows = doc.channels.map((c) => ({
      _id: kind === 'test' ? new mongoose.Types.ObjectId() : deliveryId(String(doc._id), seq, kind, c.id),
      alertId: String(doc._id), seq, channelId: c.id, channelType: c.type, kind, value, body,
      status: 'pending', attempts: [], nextAttemptAt: new Date(now), claim: { owner: null, until: null }, createdAt: new Date(now),
    }));
    await this.models.AlertDelivery.bulkWrite(rows.map(({ _id, ...row }) => ({ updateOne: { filter: { _id }, update: { $setOnInsert: row }, upsert: true } })), { ordered: true });
    return rows.map((r) => r._id);
  }

  /**
   * Takes back messages of a change this process may not make after all (the rule went to another
   * process): removed while unsent, so the holder deciding the same change writes them anew.
   */
  private async withdraw(ids: mongoose.Types.ObjectId[]): Promise<void> {
    if (ids.length) await this.models.AlertDelivery.deleteMany({ _id: { $in: ids }, status: 'pending', 'claim.owner': null, 'attempts.0': { $exists: false } });
  }

  /** The webhook body of a change: what every channel renders. */
  private async messageBody(doc: AlertDoc, kind: 'firing' | 'resolved' | 'test', value: number | null, now: number): Promise<AlertWebhookBody> {
    const src = this.sources.get(doc.dataSourceId)?.meta ?? (await this.app.models.DataSource.findById(doc.dataSourceId).lean<{ name: string }>());
    const body: AlertWebhookBody = {
      alert: { id: String(doc._id), name: doc.name },
      state: kind === 'resolved' ? 'resolved' : 'firing',
      value,
      condition: conditionText(doc),
      at: new Date(now).toISOString(),
      source: { id: doc.dataSourceId, name: src?.name ?? '' },
    };
    if (doc.widget) {
      const d = await this.app.models.Dashboard.findById(doc.widget.dashboardId).lean<DashboardDoc>();
      const base = this.app.config.PUBLIC_URL ?? '';
      if (d) body.dashboard = { id: String(d._id), name: d.name, url: `${base}/dashboard/${String(d._id)}` };
    }
    if (kind === 'test') body.test = true;
    return body;
  }

  /** Sends what is due now (a test message was written). */
  kickOutbox(): void {
    this.outbox.kick();
  }

  /** The state of a tied tile, when this process evaluates its rule. */
  tileState(dashboardId: string, widgetId: string): TileAlertState | null {
    const run = this.byTile.get(`${dashboardId}/${widgetId}`);
    return run ? { dashboardId, widgetId, state: run.state, since: run.state === 'firing' ? new Date(run.stateSince).toISOString() : null } : null;
  }

  /** Saves the rules' last values for the console: not on every write, and all of them in one command. */
  private async saveValues(): Promise<void> {
    const dirty = [...this.rules.values()].filter((r) => r.dirty && !r.busy);
    if (!dirty.length) return;
    for (const r of dirty) r.dirty = false;
    const ops = dirty.map((r) => ({
      updateOne: { filter: { _id: r.doc._id, 'lease.owner': this.owner }, update: { $set: { lastValue: r.lastValue, lastEvaluatedAt: new Date(r.lastEvalAt) } } },
    }));
    await this.models.Alert.bulkWrite(ops, { ordered: true }).catch(() => {
      for (const r of dirty) r.dirty = true;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.saveTimer) clearInterval(this.saveTimer);
    await Promise.allSettled([...this.rules.values()].map((r) => r.busy));
    for (const r of this.rules.values()) r.stop();
    for (const t of this.rechecks.values()) clearTimeout(t);
    this.parked.clear();
    await this.saveValues().catch(() => undefined);
    this.rules.clear();
    this.sources.clear();
  }
}
