import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { fieldValue } from '@common/cells';
import { CSV_OPTIONS, csvCell, neutralise, safeFileName } from '@common/csv';
import { readPath } from '@common/paths';
import { splitFieldList, type ExportFormat, type ExportQuery } from '@common/schemas/export';
import type { AppContext, DataSourceDoc, RecordDoc } from '../core';
import { decodeKeys, presentDataSource } from '../core';

type Json = Record<string, unknown>;

/** Records read from the cursor per database round trip and written per chunk. */
export const EXPORT_BATCH = 500;

const CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** A time value as epoch milliseconds: ISO 8601 and written dates, epoch seconds or milliseconds; null when unreadable. */
function timeOf(value: unknown): number | null {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number' && Number.isFinite(value)) return Math.abs(value) < 1e11 ? value * 1000 : value;
  if (typeof value === 'string' && value.trim()) {
    if (/^-?\d+(\.\d+)?$/.test(value.trim())) return timeOf(Number(value));
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** The chosen fields of a record (a path such as `issue.id` becomes a field of that name). */
function pick(data: Json, fields: string[]): Json {
  const out: Json = {};
  for (const f of fields) {
    const v = readPath(data, f);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

/** Every chunk of the file: a header, then one chunk per batch of records read from a cursor. */
async function* chunks(app: AppContext, ds: DataSourceDoc, format: ExportFormat, fields: string[], range: Range | null): AsyncGenerator<string> {
  const filter: Json = { dataSourceId: ds._id };
  if (range && range.field === null) filter.lastUpdated = { ...(range.from !== null && { $gte: new Date(range.from) }), ...(range.to !== null && { $lte: new Date(range.to) }) };
  const inRange = (data: Json): boolean => {
    if (!range || range.field === null) return true;
    const t = timeOf(readPath(data, range.field));
    return t !== null && (range.from === null || t >= range.from) && (range.to === null || t <= range.to);
  };
  // Date-time fields (the source's type model) are written as ISO 8601, whatever form they came in.
  const types = presentDataSource(ds).fieldTypes;
  const formats = fields.map((f) => (types[f] === 'datetime' ? { format: 'date' as const } : {}));
  const line = (data: Json): string =>
    format === 'csv' ? stringify([fields.map((f, i) => csvCell(f, fieldValue(data, f), formats[i]))], { ...CSV_OPTIONS, bom: false }) : JSON.stringify(pick(data, fields));
  // A JSON array's items are separated by commas, NDJSON's lines end with a line break.
  const join = (lines: string[], firstChunk: boolean): string =>
    format === 'csv' ? lines.join('') : format === 'ndjson' ? `${lines.join('\n')}\n` : `${firstChunk ? '\n' : ',\n'}${lines.join(',\n')}`;

  if (format === 'csv') yield stringify([fields.map(neutralise)], { ...CSV_OPTIONS });
  if (format === 'json') yield '[';
  let firstChunk = true;
  let batch: string[] = [];
  const cursor = app.models.Record.find(filter).sort({ _id: 1 }).lean<RecordDoc>().cursor({ batchSize: EXPORT_BATCH });
  for await (const r of cursor) {
    const data = decodeKeys((r.data ?? {}) as Json);
    if (!inRange(data)) continue;
    batch.push(line(data));
    if (batch.length >= EXPORT_BATCH) {
      yield join(batch, firstChunk);
      batch = [];
      firstChunk = false;
    }
  }
  if (batch.length) yield join(batch, firstChunk);
  if (format === 'json') yield firstChunk && !batch.length ? ']\n' : '\n]\n';
}

interface Range {
  /** A data field, or null for the time the record was last written. */
  field: string | null;
  from: number | null;
  to: number | null;
}

/**
 * A data source's records as a CSV (the server's CSV rules: UTF-8 with BOM, formulas neutralised),
 * JSON array or NDJSON file, streamed from a database cursor in batches so any size costs constant memory.
 */
export function exportRecords(app: AppContext, ds: DataSourceDoc, query: ExportQuery): { fileName: string; contentType: string; stream: Readable } {
  const fields = query.fields ? splitFieldList(query.fields) : [...(ds.fields ?? [])];
  const timeField = query.field ?? ds.timeField ?? null;
  const range: Range | null = query.from || query.to
    ? { field: timeField, from: query.from ? Date.parse(query.from) : null, to: query.to ? Date.parse(query.to) : null }
    : null;
  const stream = Readable.from(chunks(app, ds, query.format, fields, range), { objectMode: false });
  stream.on('error', (e) => app.log.error(`export of data source ${ds.sourceId} failed mid-stream`, e));
  return { fileName: safeFileName(ds.name, 'data source', query.format), contentType: CONTENT_TYPE[query.format], stream };
}
