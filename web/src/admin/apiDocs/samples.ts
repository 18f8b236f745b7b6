/** The four ingest payload formats of spec 2.12, with bodies and cURL commands that work when pasted. */
export type PayloadFormat = 'standard' | 'zendesk' | 'generic' | 'array';

export const FORMATS: { key: PayloadFormat; label: string; about: string }[] = [
  { key: 'standard', label: 'Standard', about: 'An object with the sourceId and a records array.' },
  { key: 'zendesk', label: 'Zendesk', about: 'Support-desk style: the records come in a results array (as Zendesk search answers do).' },
  { key: 'generic', label: 'Generic', about: 'Any object with the sourceId and a data array.' },
  { key: 'array', label: 'Direct Array', about: 'A top-level array; every record carries its own sourceId (records may target several sources).' },
];

const sampleRecords = () => [
  { ticket_id: 1001, subject: 'Cannot sign in', status: 'open', priority: 'high', created_at: '2024-05-01T09:30:00Z', assignee: 'alice' },
  { ticket_id: 1002, subject: 'Invoice is missing', status: 'in progress', priority: 'medium', created_at: '2024-05-02T14:05:00Z', assignee: 'bob' },
];

/** The JSON body of one format. */
export function sampleBody(format: PayloadFormat, sourceId: string): unknown {
  switch (format) {
    case 'standard':
      return { sourceId, primaryKey: 'ticket_id', records: sampleRecords() };
    case 'zendesk':
      return { sourceId, results: sampleRecords().map(({ ticket_id, ...rest }) => ({ id: ticket_id, ...rest })) };
    case 'generic':
      return { sourceId, data: sampleRecords() };
    case 'array':
      return sampleRecords().map((r) => ({ sourceId, ...r }));
  }
}

/** Quotes a string for a POSIX shell. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A cURL command posting the body to the ingest endpoint of this origin. */
export function ingestCurl(origin: string, token: string, body: unknown): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/api/data/ingest`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${token}`)} \\`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}

export interface Endpoint {
  method: string;
  path: string;
  auth: 'admin' | 'ingest' | 'none';
  about: string;
}

export const SOURCE_ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/api/data/sources/{sourceId}/records', auth: 'ingest', about: "A source's own URL: one JSON object, a JSON array, NDJSON (application/x-ndjson) or CSV (text/csv, header row); ?primaryKey=<path> while the source is empty (none: append-only), ?mode=merge|replace, ?key=<ingest key> for senders that only take a URL." },
  { method: 'POST', path: '/api/data/ingest', auth: 'ingest', about: 'Ingest records in any of the four formats; ?primaryKey=<field> names the key field; ?mode=merge updates only the fields sent.' },
  { method: 'GET', path: '/api/data/sources', auth: 'none', about: 'List data sources.' },
  { method: 'GET', path: '/api/data/raw?dataSourceId={id}', auth: 'none', about: 'The first records of a source (limit, offset), their total and the source revision they reflect.' },
  { method: 'POST', path: '/api/admin/data-sources', auth: 'admin', about: 'Create a custom data source {name, description}; the answer holds its ingest key.' },
  { method: 'PATCH', path: '/api/admin/data-sources/{id}', auth: 'admin', about: 'Update name, description, keyMappings, updateMode; primaryKey or appendOnly only while the source is empty.' },
  { method: 'POST', path: '/api/admin/data-sources/{id}/ingest-key', auth: 'admin', about: 'Rotate the ingest key (the old one stops working).' },
  { method: 'DELETE', path: '/api/admin/data-sources/{id}', auth: 'admin', about: 'Delete a data source and its records.' },
  { method: 'DELETE', path: '/api/data/sources/{sourceId}/records/{key}', auth: 'ingest', about: 'Delete one record by its primary-key value (an append-only record by its id); 404 when absent.' },
  { method: 'POST', path: '/api/data/sources/{sourceId}/records/delete', auth: 'ingest', about: 'Delete the records matching every filter {filters:[{field, operator, value}], dryRun}; dryRun only counts.' },
  { method: 'PUT', path: '/api/data/sources/{sourceId}/records', auth: 'ingest', about: 'Replace the whole set with a JSON array of records (atomic where transactions run).' },
  { method: 'GET', path: '/api/admin/engine', auth: 'admin', about: 'The database engine, the records collection size and, on the offline engine, whether writes near a second.' },
];

export const PUBLIC_ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/dashboards', auth: 'none', about: 'Published dashboards.' },
  { method: 'GET', path: '/api/dashboards/{id}', auth: 'none', about: 'A published dashboard with its tabs, data source and records.' },
  { method: 'GET', path: '/api/dashboards/{id}/export', auth: 'none', about: 'CSV export; ?tab=<tabId> exports one tab.' },
];

export const ADMIN_ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/admin/dashboards', auth: 'admin', about: 'All dashboards, drafts included.' },
  { method: 'POST', path: '/api/admin/dashboards', auth: 'admin', about: 'Create {name, description, dataSourceId, configuration}.' },
  { method: 'PATCH', path: '/api/admin/dashboards/{id}', auth: 'admin', about: 'Update any field, {isPublished} to publish, or {configuration:{tabs}}.' },
  { method: 'DELETE', path: '/api/admin/dashboards/{id}', auth: 'admin', about: 'Delete a dashboard and its tabs.' },
];
