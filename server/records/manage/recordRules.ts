import type { IngestRejection } from '@common/schemas/records/ingest';
import { FIELD_NAME_MAX_LENGTH, FIELDS_PER_SOURCE_MAX, FORBIDDEN_FIELD_NAMES } from '@common/constants';
import { readPath } from '@common/paths';
import { recordFields as fieldsOf } from '@common/cells';
import type { Slicer } from '../../core';

/**
 * What a record must be to land in a data source. Each rule rejects the one record with its
 * reason; the rest of the batch is unaffected.
 */

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** MongoDB documents nest at most 100 levels; the record sits two levels down. */
export const MAX_RECORD_DEPTH = 90;

const forbidden = new Set<string>(FORBIDDEN_FIELD_NAMES);
const shown = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * Walks a value with Object.keys only (own keys, as JSON.parse makes them — a "__proto__" key is
 * an own property there) and never reads through a forbidden key. Iterative: no stack to overflow.
 */
export function structureProblem(record: unknown): string | null {
  // Paths are built only for the message: most records have none to report, and a string per
  // field was most of this walk's time on wide batches.
  type At = { key: string; parent: At | null } | null;
  const pathOf = (at: At) => {
    const keys: string[] = [];
    for (let a = at; a; a = a.parent) keys.push(a.key);
    return keys.reverse().join('.');
  };
  const numberProblem = (value: number, at: At) =>
    `field ${shown(pathOf(at))} is a number too large to store (${value}): send it as a string, or as a number within ±1.8e308`;
  // JSON numbers past ±1.8e308 parse to Infinity, which no database stores (it read back null).
  if (typeof record === 'number' && !Number.isFinite(record)) return numberProblem(record, null);
  if (record === null || typeof record !== 'object') return null;
  const stack: { value: object; depth: number; at: At }[] = [{ value: record, depth: 0, at: null }];
  while (stack.length) {
    const { value, depth, at } = stack.pop()!;
    if (depth > MAX_RECORD_DEPTH) return `record is nested deeper than ${MAX_RECORD_DEPTH} levels`;
    for (const key of Object.keys(value)) {
      if (forbidden.has(key)) {
        return `field name ${shown(key)} is not allowed (at ${pathOf({ key, parent: at })}): ${FORBIDDEN_FIELD_NAMES.join(', ')} are reserved`;
      }
      const child = (value as Json)[key];
      if (typeof child === 'number') {
        if (!Number.isFinite(child)) return numberProblem(child, { key, parent: at });
      } else if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1, at: { key, parent: at } });
    }
  }
  return null;
}

/** Top-level field names that are too long. */
function fieldNameProblem(record: Json): string | null {
  for (const key of Object.keys(record)) {
    if (key.length > FIELD_NAME_MAX_LENGTH) {
      return `field name ${shown(key)} is ${key.length} characters long; the limit is ${FIELD_NAME_MAX_LENGTH}`;
    }
  }
  return null;
}

/**
 * How a source identifies its records: by the value at a primary-key path (upserted by it), or
 * append-only (every record kept under a server id).
 */
export type Keying = { primaryKey: string } | { appendOnly: true };

/** Why a record cannot be stored under this keying, or null when it can. */
export function recordProblem(record: unknown, keying: Keying | undefined): string | null {
  if (!isObject(record)) return 'record is not a JSON object';
  const structure = structureProblem(record);
  if (structure) return structure;
  const name = fieldNameProblem(record);
  if (name) return name;
  if (!keying || Object.keys(record).length === 0) return 'record is not a JSON object with at least one field';
  if ('appendOnly' in keying) return null;
  const { primaryKey } = keying;
  const v = readPath(record, primaryKey);
  if (v === undefined) return `record has no primary key field "${primaryKey}"`;
  if (v === null || v === '') return `primary key field "${primaryKey}" is empty`;
  if (typeof v === 'object') return `primary key field "${primaryKey}" must be a string, number or boolean`;
  return null;
}

/** The field names a record adds to a source's field list (custom_fields stays one value). */
export const recordFields = (record: Json) => fieldsOf({ data: record }, 'omit');

export interface CheckedRecords {
  /** recordId: the primary-key value as text, or null for an append-only source (the writer gives a server id). */
  accepted: { index: number; recordId: string | null; record: Json }[];
  rejections: IngestRejection[];
  /** Field names the accepted records add to the source, first-seen order. */
  newFields: string[];
}

/**
 * Checks a batch against a keying and the source's field-name budget: `known` holds the fields
 * known when the batch starts and gains those its accepted records add (a caller checking several
 * batches in a row passes the same set).
 */
export function checkRecords(sourceId: string, known: Set<string>, items: { index: number; record: unknown }[], keying: Keying | undefined): CheckedRecords {
  const out: CheckedRecords = { accepted: [], rejections: [], newFields: [] };
  for (const item of items) checkRecord(out, sourceId, known, item, keying);
  return out;
}

/** checkRecords giving the event loop a turn whenever the slice is used up (a wide batch takes tens of milliseconds). */
export async function checkRecordsInSlices(sourceId: string, known: Set<string>, items: { index: number; record: unknown }[], keying: Keying | undefined, slicer: Slicer): Promise<CheckedRecords> {
  const out: CheckedRecords = { accepted: [], rejections: [], newFields: [] };
  for (const item of items) {
    checkRecord(out, sourceId, known, item, keying);
    await slicer.tick();
  }
  return out;
}

function checkRecord(out: CheckedRecords, sourceId: string, known: Set<string>, item: { index: number; record: unknown }, keying: Keying | undefined): void {
  const keyOf = keying && 'primaryKey' in keying ? keying.primaryKey : null;
  let problem = recordProblem(item.record, keying);
  const record = item.record as Json;
  const added = problem ? [] : recordFields(record).filter((f) => !known.has(f));
  if (!problem && known.size + added.length > FIELDS_PER_SOURCE_MAX) {
    problem = `record would bring data source ${sourceId} to ${known.size + added.length} field names; the limit is ${FIELDS_PER_SOURCE_MAX} per data source`;
  }
  if (problem) {
    out.rejections.push({ index: item.index, sourceId, reason: problem });
    return;
  }
  for (const f of added) known.add(f);
  out.newFields.push(...added);
  out.accepted.push({ index: item.index, recordId: keyOf === null ? null : String(readPath(record, keyOf)), record });
}
