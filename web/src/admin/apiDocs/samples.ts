/**
 * The API samples, each built from the data source the docs show: its sourceId, its primary key
 * (or none: never a key it does not have) and its own fields from one of its records (neutral
 * placeholder fields while it has none). Every command works when pasted, once the credential is in.
 */
export type PayloadFormat = 'standard' | 'zendesk' | 'generic' | 'array';

type Json = Record<string, unknown>;

/** What the samples are built from. */
export interface SampleSource {
  /** Where the server is reached: PUBLIC_URL when the server has one, else the default local port 5000. */
  origin: string;
  sourceId: string;
  primaryKey: string | null;
  /** Every record kept as it came, under a server id (no primary key). */
  appendOnly: boolean;
  /** One record of the source, or placeholder fields (`isPlaceholder`). */
  record: Json;
  isPlaceholder: boolean;
  /** The credential written into the samples: a value, or a placeholder such as `<token>`. */
  credential: string;
}

export const LOCAL_ORIGIN = 'http://localhost:5000';

/** The four ingest formats, in the order the guide explains them. */
export const FORMATS: { key: PayloadFormat; label: string; about: string }[] = [
  { key: 'standard', label: 'Standard', about: 'An object with the sourceId and a records array.' },
  { key: 'zendesk', label: 'Zendesk', about: 'Support-desk style: the records come in a results array (as Zendesk search answers do).' },
  { key: 'generic', label: 'Generic', about: 'Any object with the sourceId and a data array.' },
  { key: 'array', label: 'Direct Array', about: 'A top-level array; every record carries its own sourceId (records may target several sources).' },
];

/** Neutral fields for a source that has no record yet (the first field is a unique id). */
export function placeholderRecord(now = new Date()): Json {
  return { id: 'example-1', name: 'Example record', amount: 42, created_at: new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString() };
}

/** The JSON body of one of the four formats, for POST /api/data/ingest. */
export function sampleBody(format: PayloadFormat, s: SampleSource): unknown {
  const records = [s.record];
  switch (format) {
    case 'standard':
      return { sourceId: s.sourceId, ...(s.primaryKey && { primaryKey: s.primaryKey }), records };
    case 'zendesk':
      return { sourceId: s.sourceId, results: records };
    case 'generic':
      return { sourceId: s.sourceId, data: records };
    case 'array':
      return records.map((r) => ({ sourceId: s.sourceId, ...r }));
  }
}

/** Quotes a string for a POSIX shell. */
export const shellQuote = (str: string) => `'${str.replace(/'/g, `'\\''`)}'`;

const auth = (credential: string) => `  -H ${shellQuote(`Authorization: Bearer ${credential}`)} \\`;

/** A cURL command posting the body to the ingest endpoint. */
export function ingestCurl(origin: string, credential: string, body: unknown): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/api/data/ingest`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    auth(credential),
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}

/** The source's own URL (POST one object, an array, NDJSON or CSV to it). */
export const sourceUrl = (s: SampleSource) => `${s.origin}/api/data/sources/${encodeURIComponent(s.sourceId)}/records`;

/** A CSV cell, quoted when it holds a comma, quote or line break. */
const csvCell = (v: unknown) => {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The record as a CSV file: a header row and one row. */
export const csvFile = (s: SampleSource) => `${Object.keys(s.record).map(csvCell).join(',')}\n${Object.values(s.record).map(csvCell).join(',')}\n`;
/** The record as an NDJSON file (one line). */
export const ndjsonFile = (s: SampleSource) => `${JSON.stringify(s.record)}\n`;

/** The primary-key value of the sample record, when the source has a key the record holds. */
export function keyValue(s: SampleSource): string | null {
  if (!s.primaryKey || !(s.primaryKey in s.record)) return null;
  const v = s.record[s.primaryKey];
  return v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A field other than the key to change in the "update one field" sample, with a new value of its type. */
function changedField(s: SampleSource): [string, unknown] {
  const [name, value] = Object.entries(s.record).find(([k]) => k !== s.primaryKey) ?? ['note', 'x'];
  if (typeof value === 'number') return [name, value + 1];
  if (typeof value === 'boolean') return [name, !value];
  return [name, 'updated'];
}

export interface Example {
  key: string;
  title: string;
  about: string;
  /** Code samples: label → text. */
  blocks: { label: string; code: string }[];
  /** Shown instead of (or above) the samples when the source cannot do this (e.g. no key). */
  note?: string;
}

/** The samples by task ("send one record", "send a file", …), all on the source's own URL. */
export function examples(s: SampleSource, ingestKey: string): Example[] {
  const url = sourceUrl(s);
  const key = keyValue(s);
  const [field, newValue] = changedField(s);
  const noKey = 'This source has no primary key: every record is kept as it came (append-only), so a record is not addressed by a field of its own. Name a primary key on the source card (while it is empty) to update or delete records by key; an append-only record is deleted by its record id.';
  return [
    {
      key: 'one',
      title: 'Send one record',
      about: 'POST one JSON object (what most webhooks send) or an array of objects to the source\'s own URL. No sourceId in the body: the URL names the source.',
      blocks: [
        { label: 'one record', code: [`curl -X POST ${shellQuote(url)} \\`, auth(s.credential), `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(JSON.stringify(s.record))}`].join('\n') },
        { label: 'an array of records', code: [`curl -X POST ${shellQuote(url)} \\`, auth(s.credential), `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(JSON.stringify([s.record], null, 2))}`].join('\n') },
      ],
    },
    {
      key: 'file',
      title: 'Send a file',
      about: 'NDJSON (one JSON object a line) or CSV (a header row, then one record a row). A line or row that cannot be read is rejected alone, with its number; the rest lands.',
      blocks: [
        { label: 'records.ndjson', code: ndjsonFile(s) },
        { label: 'NDJSON upload', code: [`curl -X POST ${shellQuote(url)} \\`, auth(s.credential), `  -H 'Content-Type: application/x-ndjson' \\`, `  --data-binary @records.ndjson`].join('\n') },
        { label: 'records.csv', code: csvFile(s) },
        { label: 'CSV upload', code: [`curl -X POST ${shellQuote(url)} \\`, auth(s.credential), `  -H 'Content-Type: text/csv' \\`, `  --data-binary @records.csv`].join('\n') },
      ],
    },
    {
      key: 'webhook',
      title: 'Push from a webhook',
      about: 'A sender that can only be given a URL carries the ingest key in it (?key=). Prefer the Authorization header wherever the sender allows headers: a URL ends up in logs and browser histories.',
      blocks: [
        { label: 'webhook URL', code: `${url}?key=${ingestKey}` },
        { label: 'what the sender does', code: [`curl -X POST ${shellQuote(`${url}?key=${ingestKey}`)} \\`, `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(JSON.stringify(s.record))}`].join('\n') },
      ],
    },
    {
      key: 'merge',
      title: 'Update one field',
      about: 'mode=merge changes only the fields sent (top level; null stores null); mode=replace (the default) replaces the whole record.',
      ...(key === null
        ? { note: noKey, blocks: [] }
        : {
            blocks: [
              {
                label: 'merge',
                code: [`curl -X POST ${shellQuote(`${url}?mode=merge`)} \\`, auth(s.credential), `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(JSON.stringify({ [s.primaryKey!]: s.record[s.primaryKey!], [field]: newValue }))}`].join('\n'),
              },
            ],
          }),
    },
    {
      key: 'delete',
      title: 'Delete a record',
      about: 'One record by its key, or every record matching a filter (dryRun: true counts them first). PUT replaces the whole set at once: a reader sees the old set or the new one, never a mix.',
      ...(key === null && { note: noKey }),
      blocks: [
        ...(key === null
          ? [{ label: 'delete by record id', code: [`curl -X DELETE ${shellQuote(`${url}/<record id>`)} \\`, auth(s.credential).replace(/ \\$/, '')].join('\n') }]
          : [{ label: 'delete by key', code: [`curl -X DELETE ${shellQuote(`${url}/${encodeURIComponent(key)}`)} \\`, auth(s.credential).replace(/ \\$/, '')].join('\n') }]),
        {
          label: 'delete by filter (dry run)',
          code: [`curl -X POST ${shellQuote(`${url}/delete`)} \\`, auth(s.credential), `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(JSON.stringify({ filters: [{ field, operator: 'eq', value: String(s.record[field] ?? '') }], dryRun: true }))}`].join('\n'),
        },
        { label: 'replace all records', code: [`curl -X PUT ${shellQuote(url)} \\`, auth(s.credential), `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(JSON.stringify([s.record], null, 2))}`].join('\n') },
      ],
    },
  ];
}
