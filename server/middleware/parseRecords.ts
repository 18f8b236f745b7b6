import { parse as parseCsv } from 'csv-parse/sync';
import { MAX_JSON_DEPTH } from '@common/schemas/errors';
import { ApiError, BadRequestError } from '../errors';
import { jsonDepth, parseJsonText } from './body';
import { isObject } from '../services/recordRules';

/**
 * The records of a body sent to a source's URL, by its Content-Type: one JSON object (one
 * record), a JSON array, NDJSON (one JSON value a line) or CSV (a header row, then one record a
 * row). A line or row that cannot be read is set aside with its index (0-based record number) and
 * a reason; the rest are records.
 */
export interface ParsedRecords {
  format: 'object' | 'array' | 'ndjson' | 'csv';
  items: { index: number; record: unknown }[];
  unreadable: { index: number; reason: string }[];
}

export type RecordsBodyType = 'json' | 'ndjson' | 'csv';

/** `wholeSet`: the body is a source's whole new set (PUT …/records): it may hold no records, and cannot be split. */
export interface ParseRecordsOptions {
  wholeSet?: boolean;
}

const tooMany = (n: number, max: number, opts: ParseRecordsOptions) =>
  BadRequestError('too_many_records', `Too many records: ${n} in one request, the limit is ${max}; ${opts.wholeSet ? 'a larger set cannot be replaced in one request' : 'split the payload into batches'}`);
const empty = () => BadRequestError('no_records', 'The body holds no records: nothing to ingest');

export function parseRecords(text: string, type: RecordsBodyType, maxRecords: number, opts: ParseRecordsOptions = {}): ParsedRecords {
  const out = type === 'json' ? parseJson(text) : type === 'ndjson' ? parseNdjson(text) : parseCsvRecords(text);
  const n = out.items.length + out.unreadable.length;
  if (n === 0 && !opts.wholeSet) throw empty();
  if (n > maxRecords) throw tooMany(n, maxRecords, opts);
  return out;
}

function parseJson(text: string): ParsedRecords {
  const body = parseJsonText(text);
  if (Array.isArray(body)) return { format: 'array', items: body.map((record, index) => ({ index, record })), unreadable: [] };
  if (isObject(body)) return { format: 'object', items: [{ index: 0, record: body }], unreadable: [] };
  throw BadRequestError('no_records', 'The body must be one JSON object (one record) or a JSON array of objects');
}

/** One JSON value a line; blank lines are skipped (they are not records). */
function parseNdjson(text: string): ParsedRecords {
  const out: ParsedRecords = { format: 'ndjson', items: [], unreadable: [] };
  let index = 0;
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const l = lines[line].trim();
    if (!l) continue;
    const i = index++;
    if (jsonDepth(l, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      out.unreadable.push({ index: i, reason: `line ${line + 1} is nested deeper than the limit of ${MAX_JSON_DEPTH} levels` });
      continue;
    }
    try {
      out.items.push({ index: i, record: JSON.parse(l) });
    } catch (e) {
      out.unreadable.push({ index: i, reason: `line ${line + 1} is not valid JSON (${e instanceof SyntaxError ? e.message : 'unreadable'})` });
    }
  }
  return out;
}

/**
 * CSV with a header row (csv-parse). Values stay text; an empty cell leaves its field out of the
 * record (CSV cannot tell an empty value from a missing one, and under merge an absent field keeps
 * its stored value). A row with more or fewer cells than the header, or one the parser cannot
 * read, is set aside alone; a stray quote inside a value is kept as written.
 */
function parseCsvRecords(text: string): ParsedRecords {
  const out: ParsedRecords = { format: 'csv', items: [], unreadable: [] };
  let header: string[] | null = null;
  let index = 0;
  const row = (cells: string[], line: number) => {
    if (!header) {
      header = cells.map((c) => c.trim());
      const blank = header.findIndex((h) => !h);
      if (blank >= 0) throw new ApiError(400, 'bad_csv_header', `The CSV header names no column ${blank + 1}: every column needs a name (the first row is the header)`);
      const dup = header.find((h, i) => header!.indexOf(h) !== i);
      if (dup !== undefined) throw new ApiError(400, 'bad_csv_header', `The CSV header names the column "${dup}" twice: column names must be unique`);
      return;
    }
    const i = index++;
    if (cells.length !== header.length) {
      out.unreadable.push({ index: i, reason: `row on line ${line} has ${cells.length} cells, the header names ${header.length} columns` });
      return;
    }
    const record: Record<string, unknown> = {};
    header.forEach((h, c) => {
      if (cells[c] !== '') Object.defineProperty(record, h, { value: cells[c], enumerable: true, writable: true, configurable: true });
    });
    out.items.push({ index: i, record });
  };
  parseCsv(text, {
    bom: true,
    relax_column_count: true,
    // A quote inside a value ("x"y, a"b) is kept as written: strict parsing loses its place there
    // and would swallow the rows after it. A quote that opens a value and never closes still does.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (cells: string[], info) => {
      row(cells, info.lines);
      return null;
    },
    on_skip: (err) => {
      if (!header) throw new ApiError(400, 'bad_csv_header', `The CSV header cannot be read: ${err?.message ?? 'malformed'}`);
      out.unreadable.push({ index: index++, reason: `row cannot be read as CSV (${err?.message ?? 'malformed'})` });
      return undefined;
    },
  });
  return out;
}
