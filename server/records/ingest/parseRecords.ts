import { parse as csvParser } from 'csv-parse';
import { FIELDS_PER_SOURCE_MAX, RECORD_MAX_BYTES } from '@common/constants';
import { MAX_JSON_DEPTH } from '@common/schemas/errors';
import { ApiError, BadRequestError, Slicer, jsonDepth, formatBytes, parseJsonInSlices, tooLargeReason, UnreadRecord, type RecordLimit } from '../../core';
import { isObject } from '../manage/recordRules';

/**
 * The records of a body sent to a source's URL, by its Content-Type: one JSON object (one
 * record), a JSON array, NDJSON (one JSON value a line) or CSV (a header row, then one record a
 * row). A line or row that cannot be read, or larger than RECORD_MAX_BYTES, is set aside with its
 * index (0-based record number) and a reason; the rest are records. Read in slices (server/core/slices):
 * no body holds the event loop, whatever its size or shape.
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

export async function parseRecords(text: string, type: RecordsBodyType, maxRecords: number, opts: ParseRecordsOptions = {}): Promise<ParsedRecords> {
  const slicer = new Slicer();
  const out = type === 'json' ? await parseJson(text, { max: maxRecords, tooMany: (n) => tooMany(n, maxRecords, opts) }) : type === 'ndjson' ? await parseNdjson(text, slicer, maxRecords) : await parseCsvRecords(text, slicer, maxRecords);
  const n = 'count' in out ? out.count : out.items.length + out.unreadable.length;
  if (n === 0 && !opts.wholeSet) throw empty();
  if (n > maxRecords) throw tooMany(n, maxRecords, opts);
  return out as ParsedRecords;
}

/** Past the record limit only the records are counted (for the 400), none is read. */
type Counted = ParsedRecords | { count: number };

async function parseJson(text: string, limit: RecordLimit): Promise<ParsedRecords> {
  if (/^\s*\{/.test(text) && text.length > RECORD_MAX_BYTES) {
    throw BadRequestError('record_too_large', `The body is one record of ${formatBytes(text.length)} of text; the limit is ${formatBytes(RECORD_MAX_BYTES)} per record`);
  }
  const body = await parseJsonInSlices(text, limit);
  if (Array.isArray(body)) {
    const out: ParsedRecords = { format: 'array', items: [], unreadable: [] };
    body.forEach((record: unknown, index) => {
      if (record instanceof UnreadRecord) out.unreadable.push({ index, reason: record.reason });
      else out.items.push({ index, record });
    });
    return out;
  }
  if (isObject(body)) return { format: 'object', items: [{ index: 0, record: body }], unreadable: [] };
  throw BadRequestError('no_records', 'The body must be one JSON object (one record) or a JSON array of objects');
}

/** The non-blank lines of `text` from `from` on (counted in slices). */
async function countLines(text: string, from: number, slicer: Slicer): Promise<number> {
  let n = 0;
  for (let pos = from; pos < text.length;) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    if (/\S/.test(text.slice(pos, end))) n++;
    pos = end + 1;
    if (slicer.due()) await slicer.pause();
  }
  return n;
}

/** One JSON value a line; blank lines are skipped (they are not records). */
async function parseNdjson(text: string, slicer: Slicer, maxRecords: number): Promise<Counted> {
  const out: ParsedRecords = { format: 'ndjson', items: [], unreadable: [] };
  let index = 0;
  let line = 0;
  for (let pos = 0; pos < text.length;) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const raw = text.slice(pos, end);
    pos = end + 1;
    line++;
    const l = raw.length > RECORD_MAX_BYTES ? raw : raw.trim();
    if (!l) continue;
    const i = index++;
    if (i >= maxRecords) return { count: i + 1 + (await countLines(text, pos, slicer)) };
    if (l.length > RECORD_MAX_BYTES) out.unreadable.push({ index: i, reason: `line ${line}: ${tooLargeReason(l.length)}` });
    else if (jsonDepth(l, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      out.unreadable.push({ index: i, reason: `line ${line} is nested deeper than the limit of ${MAX_JSON_DEPTH} levels` });
    } else {
      try {
        out.items.push({ index: i, record: JSON.parse(l) });
      } catch (e) {
        out.unreadable.push({ index: i, reason: `line ${line} is not valid JSON (${e instanceof SyntaxError ? e.message : 'unreadable'})` });
      }
    }
    if (slicer.due()) await slicer.pause();
  }
  return out;
}

const tooManyColumns = (n: number) =>
  new ApiError(400, 'bad_csv_header', `The CSV header names ${n.toLocaleString('en-US')} columns; the limit is ${FIELDS_PER_SOURCE_MAX} field names per data source`);

/**
 * The columns of a CSV's first row, counted in one linear pass (commas outside quotes; a quote
 * opens a value only at its start, as the parser reads them).
 */
export function headerColumns(text: string): number {
  let columns = 1;
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 34) {
        if (text.charCodeAt(i + 1) === 34) i++;
        else quoted = false;
      }
      continue;
    }
    if (c === 10 || c === 13) {
      // Blank lines before the header are skipped, as the parser does.
      if (columns === 1 && fieldStart) continue;
      break;
    }
    if (c === 44) {
      columns++;
      fieldStart = true;
      continue;
    }
    if (c === 34 && fieldStart) quoted = true;
    fieldStart = false;
  }
  return columns;
}

/**
 * Text handed to the CSV parser at a time: it reads a chunk in one go, a few milliseconds for 4 KB
 * whatever the rows (2,000 one-character rows or 2,000 cells of one wide row).
 */
const CSV_CHUNK_CHARS = 4 * 1024;

/** Starts the cell that stands for an oversized row (a NUL never starts a cell a person typed). */
const OVERSIZED_MARK = '\u0000oversized-row:';

/** A row longer than a record may be, found before parsing: [start, end) of `text`, and the line it starts on. */
interface OversizedRow {
  start: number;
  end: number;
  line: number;
  /** Newlines inside its quoted values: the parser is handed as many, so later rows keep their line numbers. */
  newlines: number;
}

/**
 * The rows of a CSV after its header, counted without parsing (one linear pass in slices): a newline
 * outside quotes ends a row, empty lines are not rows, a quote opens a value only at its start.
 * Rows longer than RECORD_MAX_BYTES characters are noted, so the parser never has to hold them.
 */
async function scanCsvRows(text: string, slicer: Slicer): Promise<{ rows: number; oversized: OversizedRow[] }> {
  let rows = 0;
  const oversized: OversizedRow[] = [];
  // Called at the end of each row; the header (row 0) is the parser's to judge.
  const rowEnds = (start: number, end: number, line: number, newlines = 0) => {
    if (end - start > RECORD_MAX_BYTES && rows > 0) oversized.push({ start, end, line, newlines });
    rows++;
  };
  if (!text.includes('"')) {
    // No quotes (most bodies): lines are rows, found by indexOf.
    for (let pos = 0, line = 1; pos < text.length; line++) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = text.length;
      if (end > pos && !(end === pos + 1 && text.charCodeAt(pos) === 13)) rowEnds(pos, end, line);
      pos = end + 1;
      if ((rows & 0x3fff) === 0 && slicer.due()) await slicer.pause();
    }
    return { rows: Math.max(0, rows - 1), oversized };
  }
  let quoted = false;
  let fieldStart = true;
  let empty = true;
  let line = 1;
  let start = 0;
  let startLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 10) line++;
      if (c === 34) {
        if (text.charCodeAt(i + 1) === 34) i++;
        else quoted = false;
      }
    } else if (c === 10 || c === 13) {
      if (!empty) rowEnds(start, i, startLine, line - startLine);
      if (c === 10) line++;
      empty = true;
      fieldStart = true;
      continue;
    } else if (c === 44) fieldStart = true;
    else {
      if (c === 34 && fieldStart) quoted = true;
      fieldStart = false;
    }
    if (empty) {
      start = i;
      startLine = line;
    }
    empty = false;
    if ((i & 0xffff) === 0 && slicer.due()) await slicer.pause();
  }
  if (!empty) rowEnds(start, text.length, startLine, line - startLine);
  return { rows: Math.max(0, rows - 1), oversized };
}

/**
 * CSV with a header row (csv-parse, fed in chunks). Values stay text; an empty cell leaves its
 * field out of the record (CSV cannot tell an empty value from a missing one, and under merge an
 * absent field keeps its stored value). A header naming more columns than a source may have
 * fields is refused whole; a row with more or fewer cells than the header, larger than
 * RECORD_MAX_BYTES, or one the parser cannot read, is set aside alone; a stray quote inside a
 * value is kept as written.
 */
async function parseCsvRecords(text: string, slicer: Slicer, maxRecords: number): Promise<Counted> {
  const out: ParsedRecords = { format: 'csv', items: [], unreadable: [] };
  let header: string[] | null = null;
  let index = 0;
  let failure: unknown = null;
  const readHeader = (cells: string[]) => {
    if (cells.length > FIELDS_PER_SOURCE_MAX) throw tooManyColumns(cells.length);
    const names = cells.map((c) => c.trim());
    const blank = names.findIndex((h) => !h);
    if (blank >= 0) throw new ApiError(400, 'bad_csv_header', `The CSV header names no column ${blank + 1}: every column needs a name (the first row is the header)`);
    const seen = new Set<string>();
    for (const h of names) {
      if (seen.has(h)) throw new ApiError(400, 'bad_csv_header', `The CSV header names the column "${h}" twice: column names must be unique`);
      seen.add(h);
    }
    return names;
  };
  const row = (cells: string[], line: number) => {
    if (!header) {
      header = readHeader(cells);
      return;
    }
    const i = index++;
    // Past the limit the rows are only counted.
    if (i >= maxRecords) return;
    const skipped = cells.length === 1 ? oversizedRow(cells[0]) : undefined;
    if (skipped) {
      out.unreadable.push({ index: i, reason: `row on line ${skipped.line}: ${tooLargeReason(skipped.end - skipped.start)}` });
      return;
    }
    if (cells.length !== header.length) {
      out.unreadable.push({ index: i, reason: `row on line ${line} has ${cells.length} cells, the header names ${header.length} columns` });
      return;
    }
    const size = cells.reduce((n, c) => n + c.length, 0);
    if (size > RECORD_MAX_BYTES) {
      out.unreadable.push({ index: i, reason: `row on line ${line}: ${tooLargeReason(size)}` });
      return;
    }
    const record: Record<string, unknown> = {};
    header.forEach((h, c) => {
      if (cells[c] !== '') Object.defineProperty(record, h, { value: cells[c], enumerable: true, writable: true, configurable: true });
    });
    out.items.push({ index: i, record });
  };
  const parser = csvParser({
    bom: true,
    relax_column_count: true,
    // A quote inside a value ("x"y, a"b) is kept as written: strict parsing loses its place there
    // and would swallow the rows after it. A quote that opens a value and never closes still does.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (cells: string[], info) => {
      if (failure === null) {
        try {
          row(cells, info.lines);
        } catch (e) {
          failure = e;
        }
      }
      return null;
    },
    on_skip: (err) => {
      if (!header) failure ??= new ApiError(400, 'bad_csv_header', `The CSV header cannot be read: ${err?.message ?? 'malformed'}`);
      else if (index++ < maxRecords) out.unreadable.push({ index: index - 1, reason: `row cannot be read as CSV (${err?.message ?? 'malformed'})` });
      return undefined;
    },
  });
  // A header far wider than a source may be is refused before the parser reads it: the parser
  // holds a whole row's cells until its end, and spent a long stretch of the loop on one row of
  // 100,000 columns.
  const columns = headerColumns(text);
  if (columns > FIELDS_PER_SOURCE_MAX) throw tooManyColumns(columns);
  // Past the record limit the rows are only counted, none is parsed.
  const { rows, oversized } = await scanCsvRows(text, slicer);
  if (rows > maxRecords) return { count: rows };
  // A row longer than a record may be is handed to the parser as a one-cell marker naming it: the
  // parser would otherwise grow a buffer of the whole row and copy it into one string, tens of
  // milliseconds of the loop for a 15 MB cell, only for the row to be refused.
  const oversizedRow = (cell: string) => (cell.startsWith(OVERSIZED_MARK) ? oversized[Number(cell.slice(OVERSIZED_MARK.length))] : undefined);
  parser.resume();
  const settle = (resolve: () => void, reject: (e: Error) => void) => (e?: Error | null) => (e ? reject(e) : resolve());
  const write = (chunk: string) => new Promise<void>((resolve, reject) => parser.write(chunk, settle(resolve, reject)));
  try {
    let from = 0;
    for (const [k, o] of [...oversized, null].entries()) {
      const to = o ? o.start : text.length;
      for (let at = from; at < to && failure === null; at += CSV_CHUNK_CHARS) {
        await write(text.slice(at, Math.min(at + CSV_CHUNK_CHARS, to)));
        if (slicer.due()) await slicer.pause();
      }
      if (!o || failure !== null) break;
      await write(`"${OVERSIZED_MARK}${k}${'\n'.repeat(o.newlines)}"`);
      from = o.end;
    }
    if (failure === null) {
      await new Promise<void>((resolve, reject) => {
        parser.once('error', reject);
        parser.end(resolve);
      });
    }
  } finally {
    parser.destroy();
  }
  if (failure !== null) throw failure;
  return index > maxRecords ? { count: index } : out;
}
