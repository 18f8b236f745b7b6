import { Worker } from 'node:worker_threads';
import { FIELDS_PER_SOURCE_MAX, RECORD_MAX_BYTES } from '@common/constants';
import { ErrorCode, MAX_JSON_DEPTH } from '@common/schemas/errors';
import { ApiError, BadRequestError } from '../errors';
import { Slicer } from '../slices';
import { formatBytes, parseJsonText } from './body';

/**
 * A large JSON body read without holding the event loop: JSON.parse of 16 MB takes a few hundred
 * milliseconds, so a worker thread checks the text (depth, then JSON.parse for validity and its
 * exact error message) and answers only where its records lie — the elements of a top-level
 * array, or the members of a top-level object and the elements of its array members. This thread
 * then parses record by record, giving the loop a turn every few milliseconds. A record over
 * RECORD_MAX_BYTES, or with more fields than a source may hold, is not parsed at all: it stays an
 * UnreadRecord, rejected alone (a top-level object with that many members is refused whole).
 */

/** Bodies up to this size are parsed in one go (a few milliseconds). */
export const DIRECT_PARSE_CHARS = 256 * 1024;

/** A record left unread, with the reason it is rejected. */
export class UnreadRecord {
  constructor(readonly reason: string) {}
}

const tooManyFieldsReason = (n: number) => `record has ${n.toLocaleString('en-US')} fields; the limit is ${FIELDS_PER_SOURCE_MAX} field names per data source`;

export const tooLargeReason = (chars: number) => `record is ${formatBytes(chars)} of text; the limit is ${formatBytes(RECORD_MAX_BYTES)} per record`;

type Layout =
  | { kind: 'array'; items: Uint32Array }
  | { kind: 'object'; members: { key: string; start: number; end: number; items: Uint32Array | null }[] }
  | { kind: 'whole' }
  // An object with more members than a source may have fields: only their count crosses threads
  // (100,000 member entries took a few hundred milliseconds to receive on this thread).
  | { kind: 'wide'; members: number };
type Answer = { id: number; layout: Layout } | { id: number; tooDeep: true } | { id: number; error: string };

/** Plain JavaScript: it runs in a worker without the TypeScript loader. The text is valid JSON when `layout` runs. */
const WORKER = `
const { parentPort } = require('node:worker_threads');
function depthOf(t, limit) {
  let d = 0, max = 0, inStr = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (inStr) { if (c === 92) i++; else if (c === 34) inStr = false; }
    else if (c === 34) inStr = true;
    else if (c === 123 || c === 91) { if (++d > max && (max = d) > limit) return max; }
    else if (c === 125 || c === 93) d--;
  }
  return max;
}
function ws(t, i) {
  for (;;) { const c = t.charCodeAt(i); if (c === 32 || c === 9 || c === 10 || c === 13) i++; else return i; }
}
let members = 0;
function skip(t, i) {
  const c = t.charCodeAt(i);
  members = 0;
  if (c === 34) {
    for (i++; ; i++) { const d = t.charCodeAt(i); if (d === 92) i++; else if (d === 34) return i + 1; }
  }
  if (c === 123 || c === 91) {
    let depth = 0, inStr = false;
    const start = ws(t, i + 1) - 1;
    for (; i < t.length; i++) {
      const d = t.charCodeAt(i);
      if (inStr) { if (d === 92) i++; else if (d === 34) inStr = false; }
      else if (d === 34) inStr = true;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) {
        if (c === 123 && i > start + 1) members++;
        return i + 1;
      } else if (d === 44 && depth === 1 && c === 123) members++;
    }
    return i;
  }
  for (; i < t.length; i++) { const d = t.charCodeAt(i); if (d === 44 || d === 93 || d === 125 || d === 32 || d === 9 || d === 10 || d === 13) return i; }
  return i;
}
function elements(t, i) {
  const out = [];
  i = ws(t, i + 1);
  if (t.charCodeAt(i) === 93) return [new Uint32Array(0), i + 1];
  for (;;) {
    const e = skip(t, i);
    out.push(i, e, members);
    i = ws(t, e);
    if (t.charCodeAt(i) !== 44) return [Uint32Array.from(out), i + 1];
    i = ws(t, i + 1);
  }
}
function layout(t, maxMembers) {
  let i = ws(t, 0);
  const c = t.charCodeAt(i);
  if (c === 91) return { kind: 'array', items: elements(t, i)[0] };
  if (c !== 123) return { kind: 'whole' };
  const list = [];
  i = ws(t, i + 1);
  if (t.charCodeAt(i) === 125) return { kind: 'object', members: list };
  for (;;) {
    const keyEnd = skip(t, i);
    const key = JSON.parse(t.slice(i, keyEnd));
    i = ws(t, ws(t, keyEnd) + 1);
    let items = null, end;
    if (t.charCodeAt(i) === 91) [items, end] = elements(t, i);
    else end = skip(t, i);
    list.push({ key, start: i, end, items });
    i = ws(t, end);
    if (t.charCodeAt(i) !== 44) return list.length > maxMembers ? { kind: 'wide', members: list.length } : { kind: 'object', members: list };
    i = ws(t, i + 1);
  }
}
parentPort.on('message', ({ id, text, limit, maxMembers }) => {
  try {
    if (depthOf(text, limit) > limit) return parentPort.postMessage({ id, tooDeep: true });
    JSON.parse(text);
    parentPort.postMessage({ id, layout: layout(text, maxMembers) });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof SyntaxError ? e.message : String(e) });
  }
});
`;

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

function layoutWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER, { eval: true });
  w.unref();
  const fail = (e: Error) => {
    worker = null;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  w.on('message', (a: Answer) => {
    const p = pending.get(a.id);
    pending.delete(a.id);
    p?.resolve(a);
  });
  w.on('error', fail);
  w.on('exit', () => fail(new Error('the JSON reader stopped')));
  return (worker = w);
}

function layoutOf(text: string): Promise<Answer> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    layoutWorker().postMessage({ id, text, limit: MAX_JSON_DEPTH, maxMembers: FIELDS_PER_SOURCE_MAX });
  });
}

/** A limit on records: an array longer than `max` is refused before any element is parsed. */
export interface RecordLimit {
  max: number;
  tooMany: (n: number) => Error;
}

/** A body's JSON value, as parseJsonText reads it, with records over RECORD_MAX_BYTES left as UnreadRecord. */
export async function parseJsonInSlices(text: string, limit?: RecordLimit): Promise<unknown> {
  if (text.length <= DIRECT_PARSE_CHARS) return parseJsonText(text);
  const answer = await layoutOf(text);
  if ('tooDeep' in answer) throw new ApiError(400, ErrorCode.jsonTooDeep, `The JSON body is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`);
  if ('error' in answer) throw new ApiError(400, ErrorCode.malformedJson, `Request body is not valid JSON (${answer.error.replace(/^JSON\.parse: /, '')})`);
  const { layout } = answer;
  const slicer = new Slicer();
  const piece = async (start: number, end: number): Promise<unknown> => {
    if (end - start > RECORD_MAX_BYTES) return new UnreadRecord(tooLargeReason(end - start));
    const value: unknown = JSON.parse(text.slice(start, end));
    await slicer.tick();
    return value;
  };
  // Elements come as (start, end, members): a record with more fields than a source may hold is not parsed.
  const pieces = async (items: Uint32Array) => {
    if (limit && items.length / 3 > limit.max) throw limit.tooMany(items.length / 3);
    const out: unknown[] = new Array(items.length / 3);
    for (let i = 0; i < items.length; i += 3) {
      out[i / 3] = items[i + 2] > FIELDS_PER_SOURCE_MAX ? new UnreadRecord(tooManyFieldsReason(items[i + 2])) : await piece(items[i], items[i + 1]);
    }
    return out;
  };
  if (layout.kind === 'array') return pieces(layout.items);
  if (layout.kind === 'whole') return piece(0, text.length);
  if (layout.kind === 'wide') throw BadRequestError('too_many_fields', `The JSON object ${tooManyFieldsReason(layout.members).replace(/^record /, '')}`);
  const body: Record<string, unknown> = {};
  for (const m of layout.members) {
    // As JSON.parse: a repeated key keeps its last value, and "__proto__" is an own property.
    Object.defineProperty(body, m.key, { value: m.items ? await pieces(m.items) : await piece(m.start, m.end), enumerable: true, writable: true, configurable: true });
  }
  return body;
}
