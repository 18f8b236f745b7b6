import type { DataSourceDto } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/records/record';

interface CachedRecord {
  dto: RecordDto;
  /** The record serialized once, reused by every body that contains it. */
  json: string;
}

/** Rough bytes a cached record costs: its JSON twice over (string + object tree). */
const recordBytes = (json: string) => 2 * json.length + 200;

/**
 * The presented records of one data source, kept in memory and updated by the same events that
 * produce the realtime deltas. Records are ordered by their database `_id` (the DB view's order).
 * A record change applies only if it is at least as new as what is held (`revision`), so events
 * that arrive late or twice change nothing.
 */
export class SourceView {
  readonly records = new Map<string, CachedRecord>();
  /** recordIds sorted by `_id`, rebuilt lazily after an insert or removal. */
  private order: string[] | null = null;
  private recordsJson: string | null = null;
  /** Bumped on every change: served bodies built from an older version are stale. */
  version = 0;
  revision: number;
  bytes = 0;
  lastViewed = Date.now();

  constructor(
    readonly dataSourceId: string,
    public meta: DataSourceDto | null,
    records: RecordDto[],
    /** The source held more records than the view limit: only the first `limit` are here. */
    public truncated: boolean,
    readonly limit: number,
  ) {
    this.revision = meta?.revision ?? 0;
    for (const r of records) this.put(r);
  }

  private put(r: RecordDto) {
    const old = this.records.get(r.recordId);
    if (old) this.bytes -= recordBytes(old.json);
    else this.order = null;
    const json = JSON.stringify(r);
    this.records.set(r.recordId, { dto: r, json });
    this.bytes += recordBytes(json);
  }

  private touched(revision: number) {
    this.revision = Math.max(this.revision, revision);
    this.recordsJson = null;
    this.version++;
  }

  /**
   * Applies upserted records. Returns false when the view can no longer be kept exact (it is
   * truncated and a record outside it arrived, or it grew past the limit): drop it and rebuild.
   */
  upsert(revision: number, records: RecordDto[]): boolean {
    for (const r of records) {
      const held = this.records.get(r.recordId);
      if (held && held.dto.revision > r.revision) continue;
      if (!held && this.truncated) return false;
      this.put(r);
    }
    this.touched(revision);
    return this.records.size <= this.limit;
  }

  /** Removes records changed before `revision` (a newer write of the same key stays). */
  remove(revision: number, recordIds: string[], all: boolean): boolean {
    if (this.truncated) return false;
    const ids = all ? [...this.records.keys()] : recordIds;
    for (const id of ids) {
      const held = this.records.get(id);
      if (!held || (!all && held.dto.revision >= revision)) continue;
      this.records.delete(id);
      this.bytes -= recordBytes(held.json);
      this.order = null;
    }
    this.touched(revision);
    return true;
  }

  /** Takes newer metadata (name, labels, primary key, revision). */
  setMeta(meta: DataSourceDto) {
    const held = this.meta;
    if (held && (held.revision > meta.revision || (held.revision === meta.revision && held.updatedAt > meta.updatedAt))) return;
    this.meta = meta;
    this.touched(meta.revision);
  }

  /** The records as a JSON array, serialized once per version. */
  json(): string {
    if (this.recordsJson !== null) return this.recordsJson;
    this.recordsJson = this.filteredJson(null);
    return this.recordsJson;
  }

  /** The records that pass `test` (null: all) as a JSON array, in the view's order. */
  filteredJson(test: ((data: Record<string, unknown>) => boolean) | null): string {
    const parts: string[] = [];
    for (const id of this.ordered()) {
      const r = this.records.get(id)!;
      if (!test || test(r.dto.data)) parts.push(r.json);
    }
    return `[${parts.join(',')}]`;
  }

  /** The records that pass `test` (null: all), in the view's order: the held objects, to read and never change. */
  filteredRecords(test: ((data: Record<string, unknown>) => boolean) | null): RecordDto[] {
    const out: RecordDto[] = [];
    for (const id of this.ordered()) {
      const r = this.records.get(id)!;
      if (!test || test(r.dto.data)) out.push(r.dto);
    }
    return out;
  }

  /** recordIds in the view's order. */
  private ordered(): string[] {
    if (!this.order) this.order = [...this.records.values()].sort((a, b) => (a.dto.id < b.dto.id ? -1 : a.dto.id > b.dto.id ? 1 : 0)).map((r) => r.dto.recordId);
    return this.order;
  }
}
