/**
 * Type inference: what a source's fields hold, from a sample of many records (never the first one
 * alone). Pure and incremental: the server feeds it records as they arrive (dataSources/fieldTypes.ts),
 * tests and an import screen call `inferFieldTypes` on a list.
 *
 * Paths: every leaf of a record down to `MAX_DEPTH` levels of nested objects (`issue.id`), not
 * inside arrays (an array is one leaf). A top-level field keeps its own name, dots included
 * (`a.b` reads that field: common/paths); deeper leaves are written with `formatPath`.
 *
 * Rules, over a field's non-empty values (null, undefined and "" do not count; a field with none
 * gets no type):
 * - any object or array → text;
 * - all booleans (or "true"/"false") → boolean;
 * - at least 90% numbers or number texts → number, unless the field is the source's time field or
 *   its name says time (created_at, updatedAt, timestamp…) and every number is an epoch (seconds
 *   from 2001 to 2286, or milliseconds in that span) → datetime. JSON numbers are numbers at once;
 *   number *texts* (every CSV value is text) need evidence first: at least
 *   `NUMBER_TEXT_EVIDENCE` distinct ones (or one with a decimal fraction, "12.5"), not all of them years ("1941"), none written like a code
 *   (a leading zero "007", or more digits than a number holds exactly). Until then a number-looking
 *   text is a text (a film titled "1941" shows as written);
 * - at least 90% date texts in a supported form (common/types/dates, the source's day/month order),
 *   epoch numbers among them counting as dates too → datetime;
 * - texts of at most 40 characters with at most 20 distinct values, each seen twice on average →
 *   category;
 * - otherwise text.
 */
import type { DateOrder, FieldType } from '../schemas/dataSource';
import { formatPath } from '../paths';
import { parseDateText } from './dates';

/** How deep into nested objects leaves are found (`a.b.c`). */
export const MAX_DEPTH = 3;
/** Values sampled per field: later values of a field with this many do not change its type. */
export const SAMPLE_PER_FIELD = 2_000;
/** At most this many fields are tracked per source. */
export const MAX_FIELDS = 500;

const SHARE = 0.9;
const CATEGORY_MAX_DISTINCT = 20;
const CATEGORY_MAX_LENGTH = 40;

/** Field names whose numbers are points in time (created_at, updatedAt, timestamp, due_date…). */
export const TIME_NAME = /(?:^|[_\-.\s])(?:at|time|timestamp|date|ts)$|[a-z](?:At|Time|Timestamp|Date)$|^(?:timestamp|time|date|ts)$/;
/** Epoch seconds and milliseconds between 2001 and 2286. */
const isEpoch = (n: number) => (n >= 1e9 && n < 1e10) || (n >= 1e12 && n < 1e13);
const NUMBER_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;
/** Distinct number texts a field needs before its texts read as numbers. */
export const NUMBER_TEXT_EVIDENCE = 3;
/** A number text that is a year (four digits, 1000–2999): a title or a label as often as a quantity. */
const YEAR_TEXT = /^[12]\d{3}$/;
/** A number text written like a code: a leading zero ("007", "02134") or more digits than a number holds exactly. */
const CODE_TEXT = /^[+-]?0\d|^[+-]?\d{16,}$/;
const FRACTION_TEXT = /\.\d/;

/** What a field's sampled values were. */
export interface FieldStats {
  /** Non-empty values counted. */
  values: number;
  /** JSON numbers. */
  numbers: number;
  /** Texts that read as numbers ("12.5", "1941"). */
  numberTexts: number;
  /** Distinct number texts, up to NUMBER_TEXT_EVIDENCE. */
  numberTextsSeen: Set<string>;
  /** Number texts that are not years. */
  measureTexts: number;
  /** Number texts written like codes (CODE_TEXT). */
  codeTexts: number;
  /** Number texts with a decimal fraction ("12.5"): a measure, never a year or a title. */
  fractionTexts: number;
  /** Numbers and number texts that are epoch seconds or milliseconds. */
  epochs: number;
  booleans: number;
  /** Texts in a date form under mdy and under dmy. */
  datesMdy: number;
  datesDmy: number;
  structured: number;
  /** Distinct short texts (null once there are too many, or a long one). */
  distinct: Set<string> | null;
}

const newStats = (): FieldStats => ({ values: 0, numbers: 0, numberTexts: 0, numberTextsSeen: new Set(), measureTexts: 0, codeTexts: 0, fractionTexts: 0, epochs: 0, booleans: 0, datesMdy: 0, datesDmy: 0, structured: 0, distinct: new Set() });

function count(s: FieldStats, v: unknown): void {
  s.values += 1;
  if (typeof v === 'number') {
    if (Number.isFinite(v)) {
      s.numbers += 1;
      if (isEpoch(v)) s.epochs += 1;
    }
    s.distinct = null;
  } else if (typeof v === 'boolean') {
    s.booleans += 1;
    s.distinct = null;
  } else if (typeof v === 'string') {
    const t = v.trim();
    if (NUMBER_TEXT.test(t)) {
      s.numberTexts += 1;
      if (s.numberTextsSeen.size < NUMBER_TEXT_EVIDENCE) s.numberTextsSeen.add(t);
      if (!YEAR_TEXT.test(t)) s.measureTexts += 1;
      if (CODE_TEXT.test(t)) s.codeTexts += 1;
      if (FRACTION_TEXT.test(t)) s.fractionTexts += 1;
      if (isEpoch(Number(t))) s.epochs += 1;
    } else if (t === 'true' || t === 'false') s.booleans += 1;
    else {
      const mdy = parseDateText(t, 'mdy');
      if (mdy) s.datesMdy += 1;
      // Only numeric forms read differently by day/month order.
      if (mdy && !/^\d{1,2}[/.-]/.test(t)) s.datesDmy += 1;
      else if (parseDateText(t, 'dmy')) s.datesDmy += 1;
    }
    if (s.distinct) {
      if (t.length > CATEGORY_MAX_LENGTH) s.distinct = null;
      else {
        s.distinct.add(t);
        if (s.distinct.size > CATEGORY_MAX_DISTINCT) s.distinct = null;
      }
    }
  } else {
    s.structured += 1;
    s.distinct = null;
  }
}

/** Whether a field's number texts are evidence enough of numbers: several distinct (or one with a decimal fraction), not all years, none a code. */
const textsAreNumbers = (s: FieldStats) => (s.numberTextsSeen.size >= NUMBER_TEXT_EVIDENCE || s.fractionTexts > 0) && s.measureTexts > 0 && s.codeTexts === 0;

/** The type a field's stats say (see the module note); null when it held no value yet. */
export function typeOf(path: string, s: FieldStats, opts: { dateOrder?: DateOrder; timeField?: string | null } = {}): FieldType | null {
  if (s.values === 0) return null;
  if (s.structured > 0) return 'text';
  if (s.booleans === s.values) return 'boolean';
  const numeric = s.numbers + s.numberTexts;
  if (numeric >= s.values * SHARE) {
    const named = path === opts.timeField || TIME_NAME.test(path.split('.').pop() ?? path);
    if (named && s.epochs === numeric) return 'datetime';
    if (s.numberTexts === 0 || s.numbers > 0 || textsAreNumbers(s)) return 'number';
  }
  const dates = opts.dateOrder === 'dmy' ? s.datesDmy : s.datesMdy;
  if (dates > 0 && dates + s.epochs >= s.values * SHARE) return 'datetime';
  if (s.distinct && s.numbers === 0 && s.booleans === 0 && s.values >= 2 * s.distinct.size) return 'category';
  return 'text';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A sample of a source's records, counted field by field. */
export class TypeSampler {
  readonly fields = new Map<string, FieldStats>();

  /** Counts one record's leaves (first `SAMPLE_PER_FIELD` values of each field). */
  add(data: Record<string, unknown>): void {
    this.walk(data, [], 1);
  }

  private walk(obj: Record<string, unknown>, at: string[], depth: number): void {
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (isPlainObject(v) && depth < MAX_DEPTH && Object.keys(v).length > 0) {
        this.walk(v, [...at, key], depth + 1);
        continue;
      }
      const path = at.length === 0 ? key : formatPath([...at, key]);
      let s = this.fields.get(path);
      if (!s) {
        if (this.fields.size >= MAX_FIELDS) continue;
        this.fields.set(path, (s = newStats()));
      }
      if (v === null || v === undefined || v === '' || s.values >= SAMPLE_PER_FIELD) continue;
      count(s, v);
    }
  }

  /** Each field's type (fields with no value yet are left out). */
  types(opts: { dateOrder?: DateOrder; timeField?: string | null } = {}): Record<string, FieldType> {
    const out: Record<string, FieldType> = {};
    for (const [path, s] of this.fields) {
      const t = typeOf(path, s, opts);
      // defineProperty: a field named "__proto__" is a field like any other, not the object's prototype.
      if (t) Object.defineProperty(out, path, { value: t, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** Every leaf path seen, values or not, first-seen order. */
  paths(): string[] {
    return [...this.fields.keys()];
  }
}

/** The types of a list of records' data (see the module note). */
export function inferFieldTypes(records: Iterable<Record<string, unknown>>, opts: { dateOrder?: DateOrder; timeField?: string | null } = {}): Record<string, FieldType> {
  const sampler = new TypeSampler();
  for (const r of records) sampler.add(r);
  return sampler.types(opts);
}

/** Whether two type maps say the same. */
export function sameTypes(a: Record<string, FieldType>, b: Record<string, FieldType>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}
