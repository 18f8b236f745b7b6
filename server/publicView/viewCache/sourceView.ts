import type { DataSourceDto } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/records/record';
import { Slicer } from '../../core';

interface CachedRecord {
  dto: RecordDto;
  /** The record serialized once, reused by every body that contains it. */
  json: string;
}

/** Rough bytes a cached record costs: its JSON twice over (string + object tree). */
const recordBytes = (json: string) => 2 * json.length + 200;

/** The records' JSON is cut into pieces of about this many characters (each one Buffer of the body). */
const PIECE_CHARS = 256 * 1024;

/** The first index of a list of ids sorted ascending holding an id at least `id`. */
function lowerBound(order: string[], id: string): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The presented records of one data source, kept in memory and updated by the same events that
 * produce the realtime deltas. Records are ordered by their database `_id` (the DB view's order),
 * kept as they come (a new record's id is almost always the largest: appended, else put in its
 * place), so a body never sorts the whole source. A record change applies only if it is at least
 * as new as what is held (`revision`), so events that arrive late or twice change nothing.
 */
export class SourceView {
  readonly records = new Map<string, CachedRecord>();
  /** The records' `_id`s in order, and the recordId of each (ids of removed records stay until the next compaction). */
  private ids: string[] = [];
  private recordIdOf = new Map<string, string>();
  /** Bumped on every change: served bodies built from an older version are stale. */
  version = 0;
  revision: number;
  bytes = 0;
  lastViewed = Date.now();
  /** The source held more records than the view limit: only the first `limit` are here. */
  truncated = false;

  constructor(
    readonly dataSourceId: string,
    public meta: DataSourceDto | null,
    readonly limit: number,
  ) {
    this.revision = meta?.revision ?? 0;
  }

  /** Adds a record read from the database (the reader gives them in `_id` order). */
  add(r: RecordDto): void {
    this.put(r);
  }

  private put(r: RecordDto) {
    const old = this.records.get(r.recordId);
    if (old) {
      this.bytes -= recordBytes(old.json);
      if (old.dto.id !== r.id) this.place(r);
    } else {
      this.place(r);
    }
    const json = JSON.stringify(r);
    this.records.set(r.recordId, { dto: r, json });
    this.bytes += recordBytes(json);
  }

  /** Puts a record's id in order: at the end when it is the largest (a new record), else in its place. */
  private place(r: RecordDto) {
    const last = this.ids[this.ids.length - 1];
    if (last === undefined || last < r.id) this.ids.push(r.id);
    else this.ids.splice(lowerBound(this.ids, r.id), 0, r.id);
    this.recordIdOf.set(r.id, r.recordId);
  }

  private touched(revision: number) {
    this.revision = Math.max(this.revision, revision);
    this.version++;
    // Ids of removed records go once they are as many as the records (each body skips them meanwhile).
    if (this.ids.length > 2 * this.records.size + 1024) {
      this.ids = this.ids.filter((id) => this.current(id) !== undefined);
      for (const id of [...this.recordIdOf.keys()]) if (this.current(id) === undefined) this.recordIdOf.delete(id);
    }
  }

  /** The held record whose `_id` is `id`, if it is still that record's id. */
  private current(id: string): CachedRecord | undefined {
    const recordId = this.recordIdOf.get(id);
    const held = recordId === undefined ? undefined : this.records.get(recordId);
    return held && held.dto.id === id ? held : undefined;
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

  /**
   * The records that pass `test` (null: all) as the pieces of one JSON array, in the view's order,
   * made in slices: the loop turns while a large source's body is written. The version is read at
   * the start: a change meanwhile is the caller's to notice (`version`).
   */
  async *jsonPieces(test: ((data: Record<string, unknown>) => boolean) | null, slicer = new Slicer()): AsyncGenerator<Buffer> {
    let parts: string[] = [];
    let chars = 0;
    let first = true;
    const ids = this.ids.slice();
    yield Buffer.from('[');
    for (const id of ids) {
      const r = this.current(id);
      if (!r || (test && !test(r.dto.data))) continue;
      parts.push(first ? r.json : `,${r.json}`);
      first = false;
      chars += r.json.length;
      if (chars >= PIECE_CHARS) {
        yield Buffer.from(parts.join(''));
        parts = [];
        chars = 0;
      }
      await slicer.tick();
    }
    parts.push(']');
    yield Buffer.from(parts.join(''));
  }

  /**
   * The records that pass `test` (null: all), in the view's order: the held objects, to read and
   * never change (a scheduled report's locked view), made in slices like `jsonPieces`.
   */
  async filteredRecords(test: ((data: Record<string, unknown>) => boolean) | null, slicer = new Slicer()): Promise<RecordDto[]> {
    const out: RecordDto[] = [];
    for (const id of this.ids.slice()) {
      const r = this.current(id);
      if (r && (!test || test(r.dto.data))) out.push(r.dto);
      await slicer.tick();
    }
    return out;
  }
}
