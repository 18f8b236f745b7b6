/**
 * What each route does and answers, in a few words, by `METHOD /api/path` (the matched route, as
 * activity/activityMeanings.ts keys them). Audience, path, parameters and body schema come from the
 * routes themselves (guard and validate middleware, see core/http/openapi.ts); only the words live here.
 * A route missing from this table still appears in the OpenAPI document, without a summary.
 */
export interface RouteDoc {
  summary: string;
  /** The answer of a success, in words. */
  answer: string;
  /** The success status when it is not 200. */
  status?: number;
  /** The body in words, for routes whose body is not one zod schema (ingest reads several shapes). */
  body?: string;
}

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/health': { summary: 'Server status and database mode', answer: '{status, database: {mode}}; 503 while the database is not ready' },
  'GET /api/admin/health': { summary: 'Server details for the operator: database readiness and engine, realtime adapter, version, uptime', answer: '{status, database, realtime, version, uptimeSeconds}; 503 while the database is not ready' },
  'GET /api/openapi.json': { summary: 'This API as an OpenAPI 3.1 document, generated from the routes', answer: 'OpenAPI 3.1 document' },

  'POST /api/data/ingest': {
    summary: 'Ingest records in any of the four formats (standard, Zendesk, generic, direct array); ?primaryKey= names the key field; an Idempotency-Key header makes a retry answer the first result (24 h)',
    answer: 'Ingest report {success, format, received, inserted, updated, rejected, rejections, sources}',
    body: 'JSON: {sourceId, primaryKey?, records:[…]} | {sourceId, results:[…]} | {sourceId, data:[…]} | [{sourceId, …}, …]',
  },
  'POST /api/data/sources/:sourceId/records': {
    summary: "A source's own URL: one JSON object, a JSON array, NDJSON or CSV; key in the Authorization header or ?key=; mode=merge|replace; Idempotency-Key as on /api/data/ingest",
    answer: 'Ingest report plus warnings',
    body: 'application/json (an object or an array of objects), application/x-ndjson, text/csv (header row)',
  },
  'PUT /api/data/sources/:sourceId/records': { summary: "Replace all of a source's records at once", answer: 'Ingest report', body: 'Same shapes as POST' },
  'DELETE /api/data/sources/:sourceId/records/:key': { summary: 'Delete one record by its primary-key value (or record id of an append-only source)', answer: '{deleted}' },
  'POST /api/data/sources/:sourceId/records/delete': { summary: 'Delete the records matching a filter; dryRun: true only counts them', answer: '{matched, deleted}' },

  'GET /api/data/sources': { summary: 'List data sources (ingest keys only as hints)', answer: 'DataSource[]' },
  'GET /api/data/raw': { summary: 'A page of a source\'s records with their total and the source revision they reflect', answer: '{dataSource, records, total, limit, offset, revision}' },
  'POST /api/admin/data-sources': { summary: 'Create a custom data source; the answer holds its ingest key (shown only here)', answer: 'DataSource with ingestKey', status: 201 },
  'PATCH /api/admin/data-sources/:id': { summary: "Update a data source's name, description, primary key or field labels", answer: 'DataSource' },
  'POST /api/admin/data-sources/:id/ingest-key': { summary: 'Rotate the ingest key (the old one stops working at once)', answer: 'DataSource with the new ingestKey' },
  'DELETE /api/admin/data-sources/:id': { summary: 'Delete a data source and its records', answer: '{success: true}' },
  'GET /api/admin/data-sources/:id/export': { summary: "Download a source's records as CSV, a JSON array or NDJSON, streamed; optional fields and time range", answer: 'The file (Content-Disposition names it after the source)' },

  'GET /api/dashboards': { summary: 'Published dashboards', answer: 'Dashboard[]' },
  'GET /api/dashboards/:id': { summary: 'A published dashboard with its tabs, data source and records', answer: '{dashboard, tabs, dataSource, records}' },
  'GET /api/dashboards/:id/export': { summary: "CSV export of a published dashboard's tab (?tab=<tabId>)", answer: 'CSV file' },
  'GET /api/admin/dashboards': { summary: 'All dashboards, drafts included', answer: 'Dashboard[]' },
  'GET /api/admin/dashboards/:id': { summary: 'One dashboard with its configuration', answer: 'Dashboard' },
  'POST /api/admin/dashboards': { summary: 'Create a dashboard', answer: 'Dashboard', status: 201 },
  'PATCH /api/admin/dashboards/:id': { summary: 'Update a dashboard: any field, isPublished to publish, or configuration (tabs, widgets)', answer: 'Dashboard' },
  'DELETE /api/admin/dashboards/:id': { summary: 'Delete a dashboard and its tabs', answer: '{success: true}' },

  'GET /api/admin/dashboards/:id/links': { summary: "A dashboard's share links", answer: 'ShareLink[]' },
  'POST /api/admin/dashboards/:id/links': { summary: 'Make a share link (optional expiry, CSV allowed or not); the answer holds its URL once', answer: '{link, token, path}', status: 201 },
  'DELETE /api/admin/dashboards/:id/links/:linkId': { summary: 'Revoke a share link (it stops working at once)', answer: 'ShareLink' },
  'GET /api/share/:token': { summary: 'The dashboard a share link opens, published or not', answer: '{dashboard, tabs, dataSource, records, share}' },
  'GET /api/share/:token/export': { summary: 'CSV export through a share link that allows it', answer: 'CSV file' },
  'GET /api/admin/dashboards/:id/embedding': { summary: 'The origins allowed to embed a dashboard', answer: '{dashboardId, origins}' },
  'PUT /api/admin/dashboards/:id/embedding': { summary: 'Set the origins allowed to embed a dashboard', answer: '{dashboardId, origins}' },

  'GET /api/admin/analytics': { summary: 'Live viewer counts and views per day of every dashboard', answer: 'Analytics summary' },
  'GET /api/admin/activity': { summary: 'The activity log (admin actions, ingests, refused credentials, syncs), filtered and paged', answer: '{entries, total}' },
  'GET /api/admin/activity/export': { summary: 'The activity log as CSV', answer: 'CSV file' },

  'GET /api/integrations': { summary: 'List integrations', answer: 'Integration[]' },
  'POST /api/integrations': { summary: 'Create an integration', answer: 'Integration', status: 201 },
  'POST /api/integrations/zendesk/config': { summary: "Save a Zendesk integration's OAuth credentials", answer: '{authUrl}' },
  'GET /api/integrations/zendesk/callback': { summary: "Zendesk's OAuth redirect back to LiveDash", answer: 'An HTML page that returns to the console' },
  'DELETE /api/integrations/:id': { summary: 'Delete an integration with its data source and records', answer: '{success: true}' },
  'POST /api/integrations/:id/sync': { summary: 'Start a sync (startDate in unix seconds for a first sync)', answer: '{status}', status: 202 },
  'GET /api/integrations/:id/sync-status': { summary: "A sync's progress", answer: '{isRunning, progress, ticketsProcessed, usersProcessed, lastSyncResults}' },
  'GET /api/integrations/:id/records': { summary: 'Totals per entity kind of an integration', answer: '{totalTickets, totalUsers, totalOrganizations, totalCustomStatuses}' },
  'PUT /api/integrations/:id/settings': { summary: 'Auto sync on or off and its interval', answer: 'Integration' },
};
