import fs from 'node:fs';
import { parse } from 'csv-parse';
import { RECORD_MAX_BYTES } from '@common/constants';
import { MAX_JSON_DEPTH } from '@common/schemas/errors';
import type { ImportSettings } from '@common/schemas/imports';
import { jsonDepth, tooLargeReason } from '../core';
import { isObject } from '../records';

/**
 * Reads an uploaded file row by row as a stream, in constant memory: the bytes decoded by the
 * encoding (TextDecoder, BOM dropped), then csv-parse for delimited text, a line splitter for
 * NDJSON, or a splitter of a JSON array's top-level elements (each parsed alone). A row that cannot
 * be read is yielded as an error with its row number (1-based, a CSV header not counted), as is
 * one larger than RECORD_MAX_BYTES (not parsed) or nested deeper than MAX_JSON_DEPTH.
 */

/** `tooDeep`: the row is nested deeper than MAX_JSON_DEPTH (the preview refuses a file whose sample holds only such rows). */
export type RowItem = { row: number; record: Record<string, unknown> } | { row: number; error: string; tooDeep?: true };

/** Column names of a header row: a blank one becomes "column N", a repeated one "name (2)". */
export function headerNames(cells: string[]): string[] {
  const seen = new Set<string>();
  return cells.map((c, i) => {
    let name = c.trim() || `column ${i + 1}`;
    for (let n = 2; seen.has(name); n++) name = `${c.trim() || `column ${i + 1}`} (${n})`;
    seen.add(name);
    return name;
  });
}

/** Decoded text chunks of a file. */
async function* textChunks(path: string, encoding: ImportSettings['encoding']): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 256 * 1024 })) {
    const text = decoder.decode(chunk as Buffer, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

const defineField = (record: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });

async function* csvRows(path: string, s: ImportSettings): AsyncGenerator<RowItem> {
  type Raw = { cells: string[] } | { error: string };
  const queue: Raw[] = [];
  const parser = parse({
    delimiter: s.delimiter,
    quote: s.quote,
    relax_column_count: true,
    // A stray quote inside a value is kept as written (as the source URL's CSV does).
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (cells: string[]) => {
      queue.push({ cells });
      return null;
    },
    on_skip: (err) => {
      queue.push({ error: `cannot be read as CSV (${err?.message ?? 'malformed'})` });
      return undefined;
    },
  });
  parser.resume();
  let header: string[] | null = null;
  let row = 0;
  const drain = function* (): Generator<RowItem> {
    for (const raw of queue.splice(0)) {
      if (!header && s.header && 'cells' in raw) {
        header = headerNames(raw.cells);
        continue;
      }
      row++;
      if ('error' in raw) {
        yield { row, error: raw.error };
        continue;
      }
      const names: string[] = header ?? raw.cells.map((_, i) => `column ${i + 1}`);
      if (header && raw.cells.length !== header.length) {
        yield { row, error: `has ${raw.cells.length} cells, the header names ${header.length} columns` };
        continue;
      }
      const size = raw.cells.reduce((n, c) => n + c.length, 0);
      if (size > RECORD_MAX_BYTES) {
        yield { row, error: tooLargeReason(size) };
        continue;
      }
      const record: Record<string, unknown> = {};
      raw.cells.forEach((cell, i) => defineField(record, names[i], cell));
      yield { row, record };
    }
  };
  const write = (text: string) => new Promise<void>((resolve, reject) => parser.write(text, (e) => (e ? reject(e) : resolve())));
  try {
    for await (const text of textChunks(path, s.encoding)) {
      await write(text);
      yield* drain();
    }
    await new Promise<void>((resolve, reject) => {
      parser.once('error', reject);
      parser.end(resolve);
    });
    yield* drain();
  } finally {
    parser.destroy();
  }
}

function parsed(row: number, text: string, what: string): RowItem {
  if (text.length > RECORD_MAX_BYTES) return { row, error: `${what}: ${tooLargeReason(text.length)}` };
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { row, error: `${what} is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`, tooDeep: true };
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value)) return { row, error: `${what} is not a JSON object` };
    return { row, record: value };
  } catch (e) {
    return { row, error: `${what} is not valid JSON (${e instanceof SyntaxError ? e.message : 'unreadable'})` };
  }
}

async function* ndjsonRows(path: string, s: ImportSettings): AsyncGenerator<RowItem> {
  let rest = '';
  let row = 0;
  let line = 0;
  const lines = function* (text: string, last: boolean): Generator<RowItem> {
    const parts = (rest + text).split('\n');
    rest = last ? '' : parts.pop()!;
    for (const part of parts) {
      line++;
      const l = part.trim();
      if (l) yield parsed(++row, l, `line ${line}`);
    }
  };
  for await (const text of textChunks(path, s.encoding)) yield* lines(text, false);
  yield* lines('', true);
}

/**
 * Splits a JSON array into its top-level elements' texts as chunks arrive (strings and escapes
 * followed, nesting counted), so a file of any size is read one element at a time.
 */
export class JsonArraySplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private ended = false;
  private collecting = false;
  private buf = '';

  push(text: string): string[] {
    const out: string[] = [];
    let start = this.collecting ? 0 : -1;
    const emit = (end: number) => {
      const t = (this.buf + text.slice(start, end)).trim();
      if (t) out.push(t);
      this.buf = '';
      this.collecting = false;
      start = -1;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.ended) {
        if (c.trim()) throw new Error('there is text after the end of the JSON array');
        continue;
      }
      if (!this.started) {
        if (!c.trim() || c === '\uFEFF') continue;
        if (c !== '[') throw new Error('the file is not a JSON array (it does not start with "[")');
        this.started = true;
        this.depth = 1;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      const begin = () => {
        if (this.depth === 1 && !this.collecting) {
          this.collecting = true;
          start = i;
        }
      };
      if (c === '"') {
        begin();
        this.inString = true;
      } else if (c === '{' || c === '[') {
        begin();
        this.depth++;
      } else if (c === '}' || c === ']') {
        this.depth--;
        if (this.depth === 0) {
          if (this.collecting) emit(i);
          this.ended = true;
        } else if (this.depth === 1 && this.collecting) emit(i + 1);
      } else if (c === ',' && this.depth === 1) {
        if (this.collecting) emit(i);
      } else if (this.depth === 1 && c.trim()) begin();
    }
    if (this.collecting) this.buf += text.slice(start);
    return out;
  }

  end(): void {
    if (!this.started) throw new Error('the file is not a JSON array (it is empty)');
    if (!this.ended) throw new Error('the JSON array is not closed: the file ends before its "]"');
  }
}

async function* jsonRows(path: string, s: ImportSettings): AsyncGenerator<RowItem> {
  const splitter = new JsonArraySplitter();
  let row = 0;
  try {
    for await (const text of textChunks(path, s.encoding)) {
      for (const element of splitter.push(text)) {
        row++;
        yield parsed(row, element, `element ${row}`);
      }
    }
    splitter.end();
  } catch (e) {
    yield { row: row + 1, error: e instanceof Error ? e.message : String(e) };
  }
}

export function readRows(path: string, settings: ImportSettings): AsyncGenerator<RowItem> {
  if (settings.format === 'json') return jsonRows(path, settings);
  if (settings.format === 'ndjson') return ndjsonRows(path, settings);
  return csvRows(path, settings);
}
