import mongoose from 'mongoose';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/records/record';
import { type AppContext, type DataSourceDoc, type DomainEvents, inSlices, presentDataSource, presentRecord, type RecordDoc, SLICED_READ_BATCH } from '../core';

type Data = Record<string, unknown>;

/** A record as the alerts hold it: what the aggregators need to take it out again. */
export interface HeldRecord {
  data: Data;
  revision: number;
  /** When it was last written (epoch ms). */
  at: number;
}

/** A change of records, in the terms the rules need: each record before and after (undefined: absent). */
export interface RecordChange {
  before: Data | undefined;
  after: Data | undefined;
}

export type SourceEvent =
  | { name: 'records.upserted'; payload: DomainEvents['records.upserted'] }
  | { name: 'records.removed'; payload: DomainEvents['records.removed'] }
  | { name: 'datasource.changed'; payload: DomainEvents['datasource.changed'] };

/**
 * The records of a data source that has alerts, held in memory beside the view cache so each write
 * is folded into the rules' totals without a read. Built once from MongoDB; events that arrive while
 * it is read are replayed on the result. A change applies only if it is at least as new as what is
 * held (`revision`), so the same event arriving twice (from this process and through Redis) is one change.
 */
export class WatchedSource {
  readonly records = new Map<string, HeldRecord>();
  meta: DataSourceDto | null = null;
  private pending: SourceEvent[] | null = [];
  /** More records than `maxRecords`: none are held, the source's rules are not evaluated. */
  overCap = false;

  constructor(
    readonly dataSourceId: string,
    /** The most records held in memory (ALERT_MAX_RECORDS). */
    readonly maxRecords: number,
  ) {}

  get ready(): boolean {
    return this.pending === null;
  }

  /** Reads the source and its records (in slices: the loop turns while a large source is read); the events that came meanwhile are applied after. */
  async load(app: AppContext): Promise<void> {
    const { DataSource, Record } = app.models;
    const ds = mongoose.isObjectIdOrHexString(this.dataSourceId) ? await DataSource.findById(this.dataSourceId).lean<DataSourceDoc>() : null;
    // Counted first: a source past the cap is never read into memory.
    this.overCap = ds ? (await Record.countDocuments({ dataSourceId: ds._id })) > this.maxRecords : false;
    if (ds && !this.overCap) {
      const cursor = Record.find({ dataSourceId: ds._id }).lean<RecordDoc>().cursor({ batchSize: SLICED_READ_BATCH });
      for await (const doc of inSlices(cursor)) this.put(presentRecord(doc));
    }
    this.meta = ds ? presentDataSource(ds) : null;
    const queued = this.pending ?? [];
    this.pending = null;
    for (const e of queued) this.apply(e);
  }

  private put(r: RecordDto): RecordChange | null {
    const held = this.records.get(r.recordId);
    if (held && held.revision > r.revision) return null;
    this.records.set(r.recordId, { data: r.data, revision: r.revision, at: Date.parse(r.lastUpdated) || Date.now() });
    return { before: held?.data, after: r.data };
  }

  /** Applies an event: the records' changes, or null while loading (queued) and for metadata. */
  apply(e: SourceEvent): RecordChange[] | null {
    if (this.pending) {
      this.pending.push(e);
      return null;
    }
    if (this.overCap) {
      if (e.name === 'datasource.changed') this.applyMeta(e);
      return null;
    }
    switch (e.name) {
      case 'records.upserted': {
        const out = e.payload.records.map((r) => this.put(r)).filter((c): c is RecordChange => c !== null);
        if (this.records.size <= this.maxRecords) return out;
        // Past the cap: let go of every record (the engine stops the rules and says why).
        this.overCap = true;
        this.records.clear();
        return null;
      }
      case 'records.removed': {
        const out: RecordChange[] = [];
        const ids = e.payload.all ? [...this.records.keys()] : e.payload.recordIds;
        for (const id of ids) {
          const held = this.records.get(id);
          // A newer write of the same key stays (also after "all": the same event may arrive again through Redis, after newer writes).
          if (!held || held.revision >= e.payload.revision) continue;
          this.records.delete(id);
          out.push({ before: held.data, after: undefined });
        }
        return out;
      }
      case 'datasource.changed':
        this.applyMeta(e);
        return null;
    }
  }

  private applyMeta(e: Extract<SourceEvent, { name: 'datasource.changed' }>): void {
    if (!this.meta || this.meta.revision <= e.payload.dataSource.revision) this.meta = e.payload.dataSource;
  }
}
