import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Schemas } from '../core/http/validate';
import { apiRoutes, type ApiRoute } from '../core/http/apiDocs/openapi';
import { startTestServer, type HttpAnswer, type TestServer } from '../test/harness';
import { addPerson, type Person } from '../test/people';
import { cookieSocket, join, type TestSocket } from '../test/sockets';
import { eventually } from '../test/eventually';
import { rooms } from '@common/realtime';
import { signEmbed } from '../sharing/signedEmbedding/test/embedTokens';

/*
 * A person limited to dashboard A (on source S1) reaches neither dashboard B nor source S2 through
 * any route or socket event that names a dashboard or a data source, while the same call on A / S1
 * works. The routes are read from the router and the events from a live socket: a route or event
 * that names one and has no row in the tables below fails the test, so a new one gets its case.
 */

/** What a call names: filled with A / S1 (its own) or B / S2 under several spellings (another's). */
interface Ids {
  dashboard: string;
  source: string;
  /** A share link of `dashboard`. */
  link: string;
  /** An alert rule: its own is tied to A's tile; another's watches S1 but is tied to a tile of C (not theirs), or watches S2. */
  alert: string;
}
type Named = keyof Ids;

interface Case {
  /** Who calls: the limited editor, or (for admin routes) an admin limited the same way, or (ingest) that admin's personal API token. */
  as?: 'editor' | 'admin' | 'adminToken';
  /** What the call names (beyond what the route derivation finds, e.g. a source in a body it does not validate). */
  names: Named[];
  call: (who: Person, ids: Ids) => Promise<HttpAnswer>;
  /** The status on A / S1. Omitted: the person may not do this at all (refused on A / S1 too). */
  ok?: number;
  /** A destructive call gets its own A / S1 target, made just before. */
  fresh?: (ids: Ids) => Promise<Partial<Ids>>;
}

let s: TestServer;
let editor: Person;
let limitedAdmin: Person;
/** The limited admin's personal API token: the ingest routes take it, and hold it to the admin's sources. */
let limitedAdminToken: Person;
/** A (published) on S1, the limited people's; B (a draft) on S2, not theirs. */
let own: Ids;
let other: Ids;
let s2SourceId: string;
/** Alerts the limited people may not reach: one on their source S1 tied to a tile of C (a dashboard not theirs), one on S2. */
let othersAlerts: string[] = [];
/** Spare dashboards on S1 within the editor's limits, one per destructive call. */
const spareDashboards: string[] = [];
/** A source (with a dashboard) within the limited admin's limits, for deleting a source. */
let spareSource = '';
const UNKNOWN = 'aaaaaaaaaaaaaaaaaaaaaaaa';
/** An integration the full admin made (on no dashboard of the limited people). */
let integrationId = UNKNOWN;
const integrationOf = () => integrationId;

const enc = encodeURIComponent;
const csv = 'team,n\nred,1\n';

/** Uploads a small file as the person and answers the job's id. */
async function uploadAs(who: Person): Promise<{ id: string; settings: unknown; columns: { name: string; type: string }[] }> {
  const res = await fetch(`${s.url}/api/admin/imports?fileName=teams.csv`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', cookie: who.cookie, origin: s.url }, body: csv });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}
const planInto = (up: Awaited<ReturnType<typeof uploadAs>>, dataSourceId: string) => ({
  settings: up.settings, columns: up.columns.map((c) => ({ name: c.name, field: c.name, type: c.type })), target: { kind: 'existing', dataSourceId }, key: null, mode: 'append',
});

/** Every route that names a dashboard or a data source, and how to call it. */
const ROUTES: Record<string, Case> = {
  'GET /api/admin/dashboards/:id': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}`) },
  'PATCH /api/admin/dashboards/:id': {
    names: ['dashboard', 'source'], ok: 200,
    call: (p, i) => p.http('PATCH', `/api/admin/dashboards/${enc(i.dashboard)}`, { body: { name: 'Renamed', dataSourceId: i.source } }),
  },
  'DELETE /api/admin/dashboards/:id': {
    names: ['dashboard'], ok: 200, fresh: async () => ({ dashboard: spareDashboards.pop()! }),
    call: (p, i) => p.http('DELETE', `/api/admin/dashboards/${enc(i.dashboard)}`),
  },
  // Creating a dashboard needs every dashboard: refused to a limited person, on S1 too.
  'POST /api/admin/dashboards': { names: ['source'], call: (p, i) => p.http('POST', '/api/admin/dashboards', { body: { name: 'New', dataSourceId: i.source } }) },
  // Versions and the dashboard file: a limited person on its own dashboards only; importing makes a dashboard (refused, as creating is).
  'GET /api/admin/dashboards/:id/versions': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}/versions`) },
  'GET /api/admin/dashboards/:id/versions/:n': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}/versions/1`) },
  'GET /api/admin/dashboards/:id/versions/:n/diff': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}/versions/1/diff`) },
  'POST /api/admin/dashboards/:id/versions/:n/restore': {
    names: ['dashboard'], ok: 200, call: (p, i) => p.http('POST', `/api/admin/dashboards/${enc(i.dashboard)}/versions/2/restore`, { body: {} }),
  },
  'GET /api/admin/dashboards/:id/definition': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}/definition`) },
  'POST /api/admin/dashboards/import': {
    names: ['source'],
    call: async (p, i) => p.http('POST', '/api/admin/dashboards/import', { body: { definition: (await s.http('GET', `/api/admin/dashboards/${own.dashboard}/definition`)).body, dataSourceId: i.source } }),
  },
  'GET /api/admin/dashboards/:id/embedding': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}/embedding`) },
  'PUT /api/admin/dashboards/:id/embedding': {
    names: ['dashboard'], ok: 200, call: (p, i) => p.http('PUT', `/api/admin/dashboards/${enc(i.dashboard)}/embedding`, { body: { origins: ['https://intranet.example.com'] } }),
  },
  // The embedding secret: made or rotated on one's own dashboards only (another's answers as an unknown id, and changes nothing).
  'POST /api/admin/dashboards/:id/embedding/secret': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('POST', `/api/admin/dashboards/${enc(i.dashboard)}/embedding/secret`) },
  'GET /api/admin/dashboards/:id/links': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/dashboards/${enc(i.dashboard)}/links`) },
  'POST /api/admin/dashboards/:id/links': {
    names: ['dashboard'], ok: 201,
    call: (p, i) => p.http('POST', `/api/admin/dashboards/${enc(i.dashboard)}/links`, { body: { label: 'Locked', filters: [{ field: 'team', operator: 'eq', value: 'red' }] } }),
  },
  'DELETE /api/admin/dashboards/:id/links/:linkId': {
    names: ['dashboard', 'link'], ok: 200,
    fresh: async (i) => ({ link: (await s.http('POST', `/api/admin/dashboards/${i.dashboard}/links`, { body: { label: 'Spare' } })).body.link.id }),
    call: (p, i) => p.http('DELETE', `/api/admin/dashboards/${enc(i.dashboard)}/links/${enc(i.link)}`),
  },
  // The public view: A is published; B, a draft, opens only for signed-in people who may use it.
  'GET /api/dashboards/:id': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/dashboards/${enc(i.dashboard)}`) },
  'GET /api/dashboards/:id/export': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/dashboards/${enc(i.dashboard)}/export`) },
  'GET /api/data/raw': { names: ['source'], ok: 200, call: (p, i) => p.http('GET', `/api/data/raw?dataSourceId=${enc(i.source)}`) },
  'GET /api/admin/data-sources/:id/export': { names: ['source'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/data-sources/${enc(i.source)}/export?format=ndjson`) },
  // Admin routes: the limited editor is refused by role; an admin limited the same way by the policy.
  'PATCH /api/admin/data-sources/:id': {
    as: 'admin', names: ['source'], ok: 200, call: (p, i) => p.http('PATCH', `/api/admin/data-sources/${enc(i.source)}`, { body: { fieldTypes: { n: 'text' } } }),
  },
  'POST /api/admin/data-sources/:id/ingest-key': { as: 'admin', names: ['source'], ok: 200, call: (p, i) => p.http('POST', `/api/admin/data-sources/${enc(i.source)}/ingest-key`) },
  'DELETE /api/admin/data-sources/:id': {
    as: 'admin', names: ['source'], ok: 200, fresh: async () => ({ source: spareSource }),
    call: (p, i) => p.http('DELETE', `/api/admin/data-sources/${enc(i.source)}`),
  },
  // People's limits are set by admins: a limited editor is refused by role, whatever the dashboards.
  'POST /api/admin/users': { names: ['dashboard'], call: (p, i) => p.http('POST', '/api/admin/users', { body: { email: 'x@example.com', role: 'editor', dashboardIds: [i.dashboard] } }) },
  'PATCH /api/admin/users/:id': { names: ['dashboard'], call: (p, i) => p.http('PATCH', `/api/admin/users/${editor.id}`, { body: { dashboardIds: [i.dashboard] } }) },
  // Import Data into an existing source: a limited person uploads, then only its own sources are targets.
  'POST /api/admin/imports/:id/dry-run': {
    names: ['source'], ok: 200,
    call: async (p, i) => {
      const up = await uploadAs(p);
      return p.http('POST', `/api/admin/imports/${up.id}/dry-run`, { body: planInto(up, i.source) });
    },
  },
  'POST /api/admin/imports/:id/run': {
    names: ['source'], ok: 202,
    call: async (p, i) => {
      const up = await uploadAs(p);
      const res = await p.http('POST', `/api/admin/imports/${up.id}/run`, { body: planInto(up, i.source) });
      // Settled before the next case compares what changed.
      for (let state = res.body.state; state === 'running'; state = (await p.http('GET', `/api/admin/imports/${up.id}`)).body.state) await new Promise((r) => setImmediate(r));
      // The field types follow the imported records a moment later: settled too, or the next case sees them change.
      await s.app.fieldTypes.settle();
      return res;
    },
  },
  // Alerts: a limited editor's rules watch only its dashboards' sources and tie only to its dashboards' tiles; a rule
  // tied to a tile belongs to that tile's dashboard (another's answers as an unknown id, on every route).
  'POST /api/admin/alerts': {
    names: ['source', 'dashboard'], ok: 201,
    call: (p, i) => p.http('POST', '/api/admin/alerts', { body: { name: 'Busy', dataSourceId: i.source, condition: NEVER, widget: { dashboardId: i.dashboard, widgetId: 'k1' } } }),
  },
  'GET /api/admin/alerts/:id': { names: ['alert'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/alerts/${enc(i.alert)}`) },
  'PATCH /api/admin/alerts/:id': {
    names: ['alert', 'source', 'dashboard'], ok: 200,
    call: (p, i) => p.http('PATCH', `/api/admin/alerts/${enc(i.alert)}`, { body: { dataSourceId: i.source, widget: { dashboardId: i.dashboard, widgetId: 'k1' } } }),
  },
  // A rename and an untie ask nothing of a dashboard or source in the body: the rule's own tile decides.
  'PATCH /api/admin/alerts/:id (rename)': { names: ['alert'], ok: 200, call: (p, i) => p.http('PATCH', `/api/admin/alerts/${enc(i.alert)}`, { body: { name: 'Renamed' } }) },
  'PATCH /api/admin/alerts/:id (untie)': {
    names: ['alert'], ok: 200, fresh: async () => ({ alert: await alertOn(own.dashboard) }),
    call: (p, i) => p.http('PATCH', `/api/admin/alerts/${enc(i.alert)}`, { body: { widget: null } }),
  },
  'DELETE /api/admin/alerts/:id': {
    names: ['alert'], ok: 200, fresh: async () => ({ alert: await alertOn(own.dashboard) }),
    call: (p, i) => p.http('DELETE', `/api/admin/alerts/${enc(i.alert)}`),
  },
  'POST /api/admin/alerts/:id/test': {
    names: ['alert'], ok: 202,
    call: async (p, i) => {
      const res = await p.http('POST', `/api/admin/alerts/${enc(i.alert)}/test`);
      // Its messages settled (email without SMTP fails at once) before the next case compares what changed.
      if (res.status === 202) await eventually(async () => (await s.http('GET', `/api/admin/alerts/${i.alert}/history`)).body.deliveries.every((d: { status: string }) => d.status !== 'pending'));
      return res;
    },
  },
  'GET /api/admin/alerts/:id/history': { names: ['alert'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/alerts/${enc(i.alert)}/history`) },
  'GET /api/dashboards/:id/alerts': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/dashboards/${enc(i.dashboard)}/alerts`) },
  // Reports: a limited editor's reports draw only its dashboards (the preview too).
  'POST /api/admin/reports': {
    names: ['dashboard'], ok: 201,
    call: (p, i) => p.http('POST', '/api/admin/reports', { body: { name: 'Daily', dashboardId: i.dashboard, schedule: { everyMinutes: 60 }, formats: ['csv'], channels: [{ type: 'email', to: ['a@example.com'] }] } }),
  },
  'PATCH /api/admin/reports/:id': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('PATCH', `/api/admin/reports/${reportOnA}`, { body: { dashboardId: i.dashboard } }) },
  'POST /api/admin/reports/preview': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('POST', '/api/admin/reports/preview', { body: { dashboardId: i.dashboard, width: 480 } }) },
  // A report of B (made by a full admin) answers as an unknown report: called with the report of the dashboard named, spelled as it is.
  'GET /api/admin/reports/:id': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/reports/${reportOf(i.dashboard)}`) },
  'GET /api/admin/reports/:id/deliveries': { names: ['dashboard'], ok: 200, call: (p, i) => p.http('GET', `/api/admin/reports/${reportOf(i.dashboard)}/deliveries`) },
  'POST /api/admin/reports/:id/send': { names: ['dashboard'], ok: 202, call: (p, i) => p.http('POST', `/api/admin/reports/${reportOf(i.dashboard)}/send`) },
  'DELETE /api/admin/reports/:id': {
    names: ['dashboard'], ok: 200, fresh: async (i) => ({ dashboard: await spareReportOf(i.dashboard) }),
    call: (p, i) => p.http('DELETE', `/api/admin/reports/${reportOf(i.dashboard, spareReports)}`),
  },
  // Ingest and record management take the admin token, an admin's personal API token or the source's own key (a
  // session is no credential there): a limited admin's token reaches the sources of its dashboards only.
  // Integrations make, fill and delete data sources of their own: an admin limited to chosen dashboards manages none (refused with an id of theirs too).
  ...Object.fromEntries([
    ['GET', '/api/integrations'], ['POST', '/api/integrations', { name: 'Pull', type: 'api', config: { url: 'https://api.example.com/items' } }],
    ['GET', '/api/integrations/:id'], ['PUT', '/api/integrations/:id/config', { url: 'https://api.example.com/items' }], ['POST', '/api/integrations/:id/test', {}],
    ['POST', '/api/integrations/test', { type: 'api', config: { url: 'https://api.example.com/items' } }],
    ['POST', '/api/integrations/:id/sync', {}], ['GET', '/api/integrations/:id/sync-status'], ['GET', '/api/integrations/:id/runs'],
    ['GET', '/api/integrations/:id/records'], ['PUT', '/api/integrations/:id/settings', { autoSync: false, syncInterval: 60 }], ['DELETE', '/api/integrations/:id'],
    ['POST', '/api/integrations/zendesk/config', { integrationId: UNKNOWN, clientId: 'x', clientSecret: 'y', hostUrl: 'https://acme.zendesk.com' }],
  ].map(([method, path, body]) => [`${method} ${path}`, {
    as: 'admin', names: [], call: (p: Person) => p.http(method as string, (path as string).replace(':id', integrationOf()), body === undefined ? {} : { body }),
  } satisfies Case])),
  'POST /api/data/ingest': { as: 'adminToken', names: ['source'], ok: 200, call: (p, i) => p.http('POST', '/api/data/ingest', { body: { sourceId: i.source, records: [{ team: 'x', n: 9 }] } }) },
  'POST /api/data/sources/:sourceId/records': { as: 'adminToken', names: ['source'], ok: 200, call: (p, i) => p.http('POST', `/api/data/sources/${enc(i.source)}/records`, { body: [{ team: 'x', n: 9 }] }) },
  'PUT /api/data/sources/:sourceId/records': { as: 'adminToken', names: ['source'], ok: 200, call: (p, i) => p.http('PUT', `/api/data/sources/${enc(i.source)}/records`, { body: [{ team: 'red', n: 1 }] }) },
  'DELETE /api/data/sources/:sourceId/records/:key': {
    as: 'adminToken', names: ['source'], ok: 200,
    call: async (p, i) => p.http('DELETE', `/api/data/sources/${enc(i.source)}/records/${await aRecordOf(own.source)}`),
  },
  'POST /api/data/sources/:sourceId/records/delete': {
    as: 'adminToken', names: ['source'], ok: 200,
    call: (p, i) => p.http('POST', `/api/data/sources/${enc(i.source)}/records/delete`, { body: { filters: [{ field: 'team', operator: 'eq', value: 'red' }], dryRun: true } }),
  },
};

/** A case's route: its key without the words in brackets that tell several cases of one route apart. */
const routeOf = (caseKey: string) => caseKey.replace(/ \(.*\)$/, '');
/** The cases of a route (`METHOD /path`, and `METHOD /path (what)` for more than one). */
const casesOf = (routeKey: string) => Object.keys(ROUTES).filter((k) => routeOf(k) === routeKey);

/** The record id of one of a source's records (the admin token reads it). */
const aRecordOf = async (dataSourceId: string) => (await s.http('GET', `/api/data/raw?dataSourceId=${dataSourceId}&limit=1`)).body.records[0]?.recordId ?? 'none';

/** Property names anywhere in a schema (as JSON Schema: unions, nesting and arrays included). */
function propertyNames(schema: z.ZodType | undefined): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'properties' && v && typeof v === 'object') Object.keys(v).forEach((n) => names.add(n));
      walk(v);
    }
  };
  if (schema) walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return names;
}

/** What a route names, read from its path parameters and the schemas it validates. */
function namedBy(route: { path: string; schemas: Schemas }): Named[] {
  const found = new Set<Named>();
  if (/\/dashboards\/:/.test(route.path)) found.add('dashboard');
  if (/\/alerts\/:/.test(route.path)) found.add('alert');
  if (/\/(data-sources|sources)\/:/.test(route.path)) found.add('source');
  for (const n of [...propertyNames(route.schemas.body), ...propertyNames(route.schemas.query)]) {
    if (/^(dataSourceId|sourceId)$/.test(n)) found.add('source');
    if (/^dashboardIds?$/.test(n)) found.add('dashboard');
  }
  return [...found];
}

/** An answer with the ids it names taken out (and their padding), to compare a refusal with an unknown id's. */
const answerShape = (res: HttpAnswer) => ({
  status: res.status,
  code: res.body?.error?.code,
  message: String(res.body?.error?.message).replaceAll(s2SourceId, '<id>').replace(/[0-9a-f]{24}/gi, '<id>').replace(/[\s\u0000]+/g, ' '),
});

/** What a refused call could have changed, read straight from the database (every document of these collections). */
const WATCHED = ['Dashboard', 'DashboardVersion', 'DataSource', 'Record', 'ShareLink', 'DashboardEmbedding', 'User', 'Alert', 'AlertDelivery', 'AlertChange'];
/** Fields the server itself moves on a timer (an alert's lease, its last value saved for the console): not a person's change. */
const MOVING = ['lease', 'lastValue', 'lastEvaluatedAt', 'updatedAt'];
async function snapshot() {
  const { models } = s.app.ctx.conn;
  const docs = await Promise.all(WATCHED.map((name) => (models[name] ? models[name].find().sort({ _id: 1 }).lean() : Promise.reject(new Error(`no model ${name}`)))));
  return JSON.stringify(docs, (k, v) => (MOVING.includes(k) ? undefined : v));
}

/**
 * Another's dashboard, link and source under every spelling, each with the same call on an id that
 * names nothing in its place (which must answer alike: existence does not leak).
 */
function othersFor(names: Named[]): { label: string; ids: Ids; nowhere: Ids }[] {
  const out: { label: string; ids: Ids; nowhere: Ids }[] = [];
  if (names.includes('dashboard')) {
    for (const d of [other.dashboard, other.dashboard.toUpperCase()]) out.push({ label: `dashboard ${d}`, ids: { ...own, dashboard: d, link: other.link }, nowhere: { ...own, dashboard: UNKNOWN, link: UNKNOWN } });
  }
  if (names.includes('link')) out.push({ label: `link ${other.link} of B`, ids: { ...own, link: other.link }, nowhere: { ...own, link: UNKNOWN } });
  if (names.includes('alert')) {
    for (const a of othersAlerts.flatMap((id) => [id, id.toUpperCase()])) out.push({ label: `alert ${a}`, ids: { ...own, alert: a }, nowhere: { ...own, alert: UNKNOWN } });
  }
  if (names.includes('source')) {
    for (const src of [other.source, other.source.toUpperCase(), s2SourceId, ` ${other.source}`, `${other.source}\u0000`]) {
      out.push({ label: `source ${JSON.stringify(src)}`, ids: { ...own, source: src }, nowhere: { ...own, source: UNKNOWN } });
    }
  }
  return out;
}

beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000' });
  const source = async (name: string) => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name, appendOnly: true } })).body;
    expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ team: 'red', n: 1 }] } })).status).toBe(200);
    return ds as { id: string; sourceId: string };
  };
  const dashboard = async (name: string, dataSourceId: string, isPublished = false) =>
    (await s.http('POST', '/api/admin/dashboards', { body: { name, dataSourceId, isPublished } })).body.id as string;
  const link = async (dashboardId: string) => (await s.http('POST', `/api/admin/dashboards/${dashboardId}/links`, { body: { label: 'Theirs' } })).body.link.id as string;
  const [s1, s2, s3] = [await source('S1'), await source('S2'), await source('S3')];
  const a = await dashboard('A', s1.id, true);
  const b = await dashboard('B', s2.id);
  own = { dashboard: a, source: s1.id, link: await link(a), alert: '' };
  other = { dashboard: b, source: s2.id, link: await link(b), alert: '' };
  s2SourceId = s2.sourceId;
  spareDashboards.push(await dashboard('Spare', s1.id));
  spareSource = s3.id;
  editor = await addPerson(s, 'editor', { dashboardIds: [a, ...spareDashboards] });
  limitedAdmin = await addPerson(s, 'admin', { dashboardIds: [a, await dashboard('On S3', s3.id)] });
  integrationId = (await s.http('POST', '/api/integrations', { body: { name: 'Theirs', type: 'zendesk' } })).body.id;
  const made = await limitedAdmin.http('POST', '/api/auth/tokens', { body: { name: 'Sender' } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  limitedAdminToken = { ...limitedAdmin, http: (method, path, opts = {}) => s.http(method, path, { ...opts, token: made.body.token }) };
});
afterAll(() => s.close());

/** A condition no count here reaches: the rules never change state while the walk compares what changed. */
const NEVER = { operator: 'gt', value: 1e9 };
const KPI_TAB = [{ id: 't1', name: 'Main', widgets: [{ id: 'k1', type: 'kpi', configuration: { metric: 'count' } }] }];

/** An alert made by the admin token on the source of `dashboardId` (or on `source`), tied to its tile k1 unless `source` is given. */
async function alertOn(dashboardId: string | null, source = own.source): Promise<string> {
  const body = { name: 'Spare', dataSourceId: source, condition: NEVER, channels: [{ type: 'email', to: ['ops@example.com'] }], widget: dashboardId ? { dashboardId, widgetId: 'k1' } : null };
  const res = await s.http('POST', '/api/admin/alerts', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** Own: an alert on S1 tied to A's KPI tile. Others': one on S1 tied to a tile of C (on S1, not the limited people's), one on S2. */
beforeAll(async () => {
  expect((await s.http('PATCH', `/api/admin/dashboards/${own.dashboard}`, { body: { configuration: { tabs: KPI_TAB } } })).status).toBe(200);
  const c = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'C', dataSourceId: own.source, isPublished: true, configuration: { tabs: KPI_TAB } } })).body.id as string;
  own.alert = await alertOn(own.dashboard);
  othersAlerts = [await alertOn(c), await alertOn(null, other.source)];
  other.alert = othersAlerts[0];
});

/** A report of A (PATCH /api/admin/reports/:id moves it). */
let reportOnA = '';
/** The report each dashboard is called with (by the lower-case id): A's, and B's made by the full admin. */
const reports = new Map<string, string>();
/** The report of the dashboard `d` names, spelled as `d` is (upper case too); an unknown dashboard's is an unknown report. */
/** Spare reports to delete, by dashboard (B has none: its one report is called). */
const spareReports = new Map<string, string>();
const reportOf = (d: string, from = reports) => {
  const id = from.get(d.toLowerCase()) ?? reports.get(d.toLowerCase()) ?? UNKNOWN;
  return d === d.toUpperCase() ? id.toUpperCase() : id;
};
const makeReport = async (dashboardId: string, name: string) => {
  const report = await s.http('POST', '/api/admin/reports', { body: { name, dashboardId, schedule: { everyMinutes: 60 }, formats: ['csv'], channels: [{ type: 'email', to: ['a@example.com'] }] } });
  expect(report.status, JSON.stringify(report.body)).toBe(201);
  return report.body.id as string;
};
/** A spare report of `dashboardId` to delete. */
async function spareReportOf(dashboardId: string): Promise<string> {
  spareReports.set(dashboardId, await makeReport(dashboardId, 'Spare'));
  return dashboardId;
}
beforeAll(async () => {
  reportOnA = await makeReport(own.dashboard, 'Of A');
  reports.set(own.dashboard, reportOnA);
  reports.set(other.dashboard, await makeReport(other.dashboard, 'Of B'));
});

describe('a person limited to chosen dashboards reaches no other dashboard or data source', () => {
  let routes: (ApiRoute & { key: string; names: Named[] })[];
  beforeAll(() => {
    routes = apiRoutes(s.app.api).map((r) => ({ ...r, key: `${r.method} ${r.path}`, names: namedBy(r) })).filter((r) => r.names.length || casesOf(r.key).length);
  });

  it('has a case for every route that names a dashboard or a data source (and no case for a route that is gone)', () => {
    const derived = routes.filter((r) => r.names.length).map((r) => r.key);
    expect(derived.length).toBeGreaterThan(20);
    expect(derived.filter((k) => !casesOf(k).length), 'routes naming a dashboard, data source or alert without a case in ROUTES').toEqual([]);
    const all = new Set(apiRoutes(s.app.api).map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(ROUTES).filter((k) => !all.has(routeOf(k))), 'cases of routes that no longer exist').toEqual([]);
  });

  it('refuses every such route on B / S2 (any spelling) as it refuses an unknown id, changing nothing, and serves it on A / S1', { timeout: 60_000 }, async () => {
    for (const r of routes.flatMap((route) => casesOf(route.key).map((key) => ({ ...route, key, c: ROUTES[key] })))) {
      const c = r.c;
      // One of several cases of a route names what its own call names; the only case of a route, what the route names too.
      const names = r.key === routeOf(r.key) ? [...new Set([...r.names, ...c.names])] : c.names;
      const who = c.as === 'admin' ? limitedAdmin : c.as === 'adminToken' ? limitedAdminToken : editor;
      for (const { label, ids, nowhere } of othersFor(names)) {
        const before = await snapshot();
        const res = await c.call(who, ids);
        const what = `${r.key} as the limited ${c.as ?? 'editor'} with ${label}: ${res.status} ${JSON.stringify(res.body)}`;
        expect([401, 403, 404], what).toContain(res.status);
        expect(await snapshot(), `${what} changed something`).toBe(before);
        if (!c.ok) continue;
        // Existence does not leak: another's dashboard or source answers as one that does not exist.
        const unknown = await c.call(who, nowhere);
        expect(answerShape(unknown), `${what}, and with an unknown id: ${JSON.stringify(unknown.body)}`).toEqual(answerShape(res));
      }
      if (c.as === 'admin') {
        // The limited editor may not call an admin route at all.
        expect((await c.call(editor, own)).status, `${r.key} as the limited editor`).toBe(403);
      }
      if (c.as === 'adminToken') {
        // A person's session is no ingest credential.
        expect((await c.call(limitedAdmin, own)).status, `${r.key} with the limited admin's session`).toBe(401);
      }
      const mine = { ...own, ...(c.fresh ? await c.fresh(own) : {}) };
      const res = await c.call(who, mine);
      // What a write on A / S1 causes a moment later (field types follow records) is settled before the next case compares.
      await s.app.fieldTypes.settle();
      if (c.ok) expect(res.status, `${r.key} on A / S1: ${JSON.stringify(res.body)}`).toBe(c.ok);
      else expect([401, 403], `${r.key} on A / S1 is refused to a limited person: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
  });

  it("lists only its own dashboards' reports, and leaves B's report as it was: not renamed, moved, sent or deleted", async () => {
    const listed = (await editor.http('GET', '/api/admin/reports')).body as { dashboardId: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((r) => r.dashboardId !== own.dashboard)).toEqual([]);
    const ofB = await s.http('GET', `/api/admin/reports/${reportOf(other.dashboard)}`);
    expect(ofB.body).toMatchObject({ name: 'Of B', dashboardId: other.dashboard, lastDelivery: null });
    expect((await s.http('GET', `/api/admin/reports/${reportOf(other.dashboard)}/deliveries`)).body).toEqual([]);
    const stored = await s.app.ctx.conn.models.Report.findById(reportOf(other.dashboard)).lean<{ sendRequestedAt: Date | null; drawFailures: number }>();
    expect(stored).toMatchObject({ sendRequestedAt: null, drawFailures: 0 });
  });

  it('lists only its own dashboards, sources and alerts', async () => {
    const ids = (res: HttpAnswer) => (res.body as { id?: string; dashboardId?: string }[]).map((d) => d.id ?? d.dashboardId).sort();
    expect(ids(await editor.http('GET', '/api/data/sources'))).toEqual([own.source]);
    const alerts = ids(await editor.http('GET', '/api/admin/alerts'));
    expect(alerts).toContain(own.alert);
    expect(alerts.filter((a) => othersAlerts.includes(a!)), 'alerts tied to a tile of a dashboard not theirs, or on a source not theirs').toEqual([]);
    const dashboards = ids(await editor.http('GET', '/api/admin/dashboards'));
    expect(dashboards).toContain(own.dashboard);
    expect(dashboards).not.toContain(other.dashboard);
    expect(ids(await editor.http('GET', '/api/admin/analytics'))).toEqual(dashboards);
  });
});

/** Every socket event that names a dashboard or a data source, and what it must do. */
const EVENTS: Record<string, { join?: Named } | { grantsNothing: string }> = {
  'dashboard:join': { join: 'dashboard' },
  'datasource:join': { join: 'source' },
  'dashboard:leave': { grantsNothing: 'leaves a room' },
  'datasource:leave': { grantsNothing: 'leaves a room' },
};

describe('socket events that name a dashboard or a data source', () => {
  let socket: TestSocket;
  beforeAll(async () => {
    socket = await cookieSocket(s.url, editor.cookie);
  });
  afterAll(() => socket.disconnect());
  const held = () => new Set(s.app.realtime.io.of('/').sockets.get(socket.id!)?.rooms ?? []);

  it('has a case for every such event the server listens to', () => {
    const events = (s.app.realtime.io.of('/').sockets.get(socket.id!)?.eventNames() ?? []).map(String);
    const naming = events.filter((e) => /^(dashboard|datasource):/.test(e));
    expect(naming.length).toBeGreaterThanOrEqual(4);
    expect(naming.filter((e) => !(e in EVENTS)), 'events without a case in EVENTS').toEqual([]);
  });

  it('joins nothing of B / S2 under any spelling, and A / S1 as before', async () => {
    const otherRooms = [rooms.dashboard(other.dashboard), rooms.draft(other.dashboard), rooms.dataSource(other.source), rooms.source(other.source)];
    for (const [event, c] of Object.entries(EVENTS)) {
      if ('grantsNothing' in c) {
        socket.emit(event as 'dashboard:leave', other.dashboard);
        socket.emit(event as 'dashboard:leave', other.source);
        continue;
      }
      const ids = c.join === 'dashboard' ? [other.dashboard, other.dashboard.toUpperCase(), ` ${other.dashboard}`] : [other.source, other.source.toUpperCase(), s2SourceId, ` ${other.source}`];
      for (const id of ids) expect(await join(socket, event as 'datasource:join', id), `${event} ${id}`).toMatchObject({ ok: false });
      expect(await join(socket, event as 'datasource:join', c.join === 'dashboard' ? own.dashboard : own.source), `${event} of its own`).toMatchObject({ ok: true });
    }
    expect(otherRooms.filter((r) => held().has(r))).toEqual([]);
    expect(held().has(rooms.dataSource(own.source))).toBe(true);
  });
});

describe('credentials that are not people reach only their own', () => {
  const routesWhere = (keep: (r: ApiRoute) => boolean) => apiRoutes(s.app.api).filter(keep).map((r) => `${r.method} ${r.path}`);

  it("lets S1's ingest key write and manage S1 only: on S2 (any spelling) every ingest route answers as on an unknown source, changing nothing", { timeout: 60_000 }, async () => {
    const ingest = routesWhere((r) => r.audience === 'ingest');
    expect(ingest.length).toBeGreaterThanOrEqual(5);
    // S1's key as it is now (a case above rotated it).
    const s1Key: string = (await s.http('POST', `/api/admin/data-sources/${own.source}/ingest-key`)).body.ingestKey;
    const keyHolder: Person = { ...limitedAdmin, http: (method, path, opts = {}) => s.http(method, path, { ...opts, token: s1Key }) };
    for (const key of ingest) {
      const c = ROUTES[key];
      expect(c, `${key} has a case in ROUTES`).toBeDefined();
      for (const { label, ids } of othersFor(['source'])) {
        // An unknown id spelled the same way (padding included): the key's refusal names what it was given.
        const nowhere = { ...ids, source: ids.source.replace(other.source, UNKNOWN).replace(other.source.toUpperCase(), UNKNOWN.toUpperCase()).replace(s2SourceId, UNKNOWN) };
        const before = await snapshot();
        const res = await c.call(keyHolder, ids);
        const what = `${key} with S1's ingest key and ${label}: ${res.status} ${JSON.stringify(res.body)}`;
        expect([res.status, res.body?.error?.code], what).toEqual([403, 'ingest_key_forbidden']);
        expect(await snapshot(), `${what} changed something`).toBe(before);
        expect(answerShape(await c.call(keyHolder, nowhere)), `${what}, and with an unknown source`).toEqual(answerShape(res));
      }
      const res = await c.call(keyHolder, own);
      await s.app.fieldTypes.settle();
      expect(res.status, `${key} on S1 with its own key: ${JSON.stringify(res.body)}`).toBe(c.ok);
    }
  });

  it('lets a share link read its own dashboard only, through its locked filters, while it is live: a revoked or expired link answers as an unknown token', async () => {
    const share = routesWhere((r) => r.path.startsWith('/api/share/:token'));
    expect(share.sort()).toEqual(['GET /api/share/:token', 'GET /api/share/:token/alerts', 'GET /api/share/:token/export']);
    const make = async () => (await s.http('POST', `/api/admin/dashboards/${own.dashboard}/links`, { body: { label: 'Red team', allowCsv: true, filters: [{ field: 'team', operator: 'eq', value: 'red' }] } })).body;
    // Records of another team on A's source, which the locked link must not show.
    expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: own.source, records: [{ team: 'blue', n: 2 }] } })).status).toBe(200);
    const live = await make();
    const revoked = await make();
    expect((await s.http('DELETE', `/api/admin/dashboards/${own.dashboard}/links/${revoked.link.id}`)).status).toBe(200);
    // Expired and unknown: changed in the database before any lookup holds them.
    const expired = await make();
    await s.app.ctx.models.ShareLink.updateOne({ _id: expired.link.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const gone = await make();
    await s.app.ctx.models.ShareLink.deleteOne({ _id: gone.link.id });
    const path = (route: string, token: string) => route.slice('GET '.length).replace(':token', token);

    const view = await s.http('GET', path('GET /api/share/:token', live.token), { token: null });
    expect(view.status).toBe(200);
    expect(view.body.dashboard.id).toBe(own.dashboard);
    const teams = new Set((view.body.records as { data: { team: string } }[]).map((r) => r.data.team));
    expect([...teams]).toEqual(['red']);
    const csv = await s.http('GET', path('GET /api/share/:token/export', live.token), { token: null });
    expect(csv.status).toBe(200);
    expect(csv.text).not.toMatch(/\bblue\b/);
    const tiles = await s.http('GET', path('GET /api/share/:token/alerts', live.token), { token: null });
    expect(tiles.status).toBe(200);
    expect((tiles.body as { dashboardId: string }[]).every((t) => t.dashboardId === own.dashboard)).toBe(true);

    for (const route of share) {
      const unknown = answerShape(await s.http('GET', path(route, gone.token), { token: null }));
      expect(unknown.status, route).toBe(404);
      for (const [label, link] of [['revoked', revoked], ['expired', expired]] as const) {
        expect(answerShape(await s.http('GET', path(route, link.token), { token: null })), `${route} with a ${label} link`).toEqual(unknown);
      }
    }
  });

  it('lets a signed embed token read its own dashboard only, through its filters, while it opens: one signed for another dashboard, an old secret\'s or an expired one answers as a malformed token', async () => {
    const embed = routesWhere((r) => r.audience === 'embed');
    expect(embed.sort()).toEqual(['GET /api/embed/:token', 'GET /api/embed/:token/export']);
    const secretOf = async (id: string) => (await s.http('POST', `/api/admin/dashboards/${id}/embedding/secret`)).body.secret as string;
    const [mine, theirs] = [await secretOf(own.dashboard), await secretOf(other.dashboard)];
    const red = { dashboard: own.dashboard, filters: [{ field: 'team', operator: 'eq', value: 'red' }], allowCsv: true };
    expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: own.source, records: [{ team: 'blue', n: 3 }] } })).status).toBe(200);
    const live = await signEmbed(mine, red);
    const path = (route: string, token: string) => route.slice('GET '.length).replace(':token', token);
    const view = await s.http('GET', path('GET /api/embed/:token', live), { token: null });
    expect(view.status, view.text).toBe(200);
    expect(view.body.dashboard.id).toBe(own.dashboard);
    expect([...new Set((view.body.records as { data: { team: string } }[]).map((r) => r.data.team))]).toEqual(['red']);
    const csv = await s.http('GET', path('GET /api/embed/:token/export', live), { token: null });
    expect(csv.status).toBe(200);
    expect(csv.text).not.toMatch(/\bblue\b/);

    const refusals = [
      ['signed with its secret for the other dashboard', await signEmbed(mine, { ...red, dashboard: other.dashboard })],
      ['naming its dashboard, signed with the other\'s secret', await signEmbed(theirs, red)],
      ['expired', await signEmbed(mine, { ...red, exp: Math.floor(Date.now() / 1000) - 120 })],
    ] as const;
    const stale = await signEmbed(mine, { ...red, sub: 'before the rotation' });
    expect((await s.http('GET', path('GET /api/embed/:token', stale), { token: null })).status).toBe(200);
    await secretOf(own.dashboard);
    for (const route of embed) {
      const malformed = answerShape(await s.http('GET', path(route, 'a.b.c'), { token: null }));
      expect(malformed.status, route).toBe(401);
      for (const [label, token] of [...refusals, ['of the old secret', stale] as const]) {
        expect(answerShape(await s.http('GET', path(route, token), { token: null })), `${route} ${label}`).toEqual(malformed);
      }
    }
  });
});
