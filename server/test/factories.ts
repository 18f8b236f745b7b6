import mongoose from 'mongoose';
import { CreateDashboard, type DashboardDto } from '@common/schemas/dashboard';
import type { Role } from '@common/schemas/auth';
import { CreateDataSource, type DataSourceWithKeyDto } from '@common/schemas/dataSource';
import { newSecret, sha256, SESSION_IDLE_MS, API_TOKEN_PREFIX, accountsHandle } from '../access/accounts/accounts';
import { SESSION_COOKIE } from '../access/accounts/cookies';
import { hashPassword } from '../access/accounts/passwords';
import { createDashboard } from '../dashboards/dashboards';
import { createDataSource } from '../dataSources/dataSources';
import { ingestRecords } from '../records/ingest/ingestRecords';
import type { TestServer } from './harness';
import { asCookie, PASSWORD, type Person } from './people';

/*
 * Test data made directly through the app's services and models, not over HTTP: a test states what
 * it starts from in one line, and pays no request (nor a password hash) per thing. Domain events
 * still go out, so the view cache and the rooms see the data as they would in production. Sign-in's
 * own tests make people over HTTP (`addPerson` in people.ts): that is what they test.
 */

export type BuiltSource = DataSourceWithKeyDto;

/** A data source (any of its settings), with `records` ingested as the admin would, their field types settled. */
export async function buildSource(
  s: TestServer,
  opts: { records?: Record<string, unknown>[] } & Partial<CreateDataSource> = {},
): Promise<BuiltSource> {
  const { records, ...settings } = opts;
  const ds = await createDataSource(s.app.ctx, CreateDataSource.parse({ name: 'Tickets', ...settings }));
  if (records?.length) {
    const report = await ingestRecords(s.app.ctx, { sourceId: ds.sourceId, records }, { admin: true });
    if (report.rejected) throw new Error(`buildSource: ${report.rejected} of the records were refused: ${JSON.stringify(report)}`);
    // The field types follow an ingest a moment later, as a change of their own: settle them here,
    // so a test's first socket event is its own change.
    await s.app.fieldTypes.settle();
  }
  return ds;
}

/**
 * A dashboard on `source` (one is built when none is given), published or not, its first tab holding
 * `widgets`. The configuration is checked by the product's own schema, as a request's would be.
 */
export async function buildDashboard(
  s: TestServer,
  opts: { source?: { id: string }; name?: string; published?: boolean; widgets?: unknown[]; configuration?: { tabs?: unknown[]; [setting: string]: unknown } } = {},
): Promise<DashboardDto> {
  const source = opts.source ?? (await buildSource(s));
  const configuration = opts.widgets ? { ...opts.configuration, tabs: [{ id: 'tab1', name: 'Tab 1', widgets: opts.widgets }] } : opts.configuration;
  const input = CreateDashboard.parse({ name: opts.name ?? 'Live', dataSourceId: source.id, isPublished: opts.published ?? false, configuration });
  return createDashboard(s.app.ctx, input);
}

/** A person made in the database: a session cookie and a personal API token, both ready to use. */
export interface BuiltPerson extends Person {
  role: Role;
  /** A personal API token (`Authorization: Bearer`), acting with the person's role. */
  token: string;
}

let shared: Promise<string> | null = null;
/** The one password hash of the test people: scrypt costs ~0.1 s, so a process pays it once. */
const passwordHash = () => (shared ??= hashPassword(PASSWORD));
let n = 0;

/** A person of `role` (limited to `dashboardIds` when given), signed in, with a personal API token. */
export async function buildPerson(s: TestServer, role: Role, opts: { dashboardIds?: string[] | null; email?: string; name?: string } = {}): Promise<BuiltPerson> {
  const { User, Session, ApiToken } = accountsHandle.of(s.app.ctx).models;
  const email = opts.email ?? `${role}${++n}.${Date.now()}@example.com`;
  const user = await User.create({ email, name: opts.name ?? `${role} ${n}`, role, dashboardIds: opts.dashboardIds ?? null, passwordHash: await passwordHash() });
  const userId = String(user._id);
  const sessionId = newSecret();
  const now = new Date();
  await Session.create({ idHash: sha256(sessionId), userId, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_IDLE_MS) });
  const token = `${API_TOKEN_PREFIX}${newSecret()}`;
  await ApiToken.create({ tokenHash: sha256(token), userId, name: 'test', hint: `${token.slice(0, 8)}…` });
  const cookie = `${SESSION_COOKIE}=${sessionId}`;
  return { id: userId, email, password: PASSWORD, role, cookie, token, http: asCookie(s, cookie) };
}

/**
 * A data source holding `count` records written in one bulk insert straight into the records
 * collection (the offline engine pays its quadratic insert cost once, not once per batch): large
 * sources for tests and benches. `data(i)` is record i (its `id` field is the key); the source's
 * count, fields and field types are set as inference would set them.
 */
export async function buildLargeSource(
  s: TestServer,
  count: number,
  data: (i: number) => Record<string, unknown>,
  opts: { name?: string; timeField?: string; fieldTypes?: Record<string, string> } = {},
): Promise<BuiltSource> {
  const ds = await createDataSource(s.app.ctx, CreateDataSource.parse({ name: opts.name ?? 'Large', primaryKey: 'id', ...(opts.timeField ? { timeField: opts.timeField } : {}) }));
  const { Record: Records, DataSource } = s.app.ctx.models;
  const sourceId = new mongoose.Types.ObjectId(ds.id);
  const at = new Date();
  const docs = Array.from({ length: count }, (_, i) => {
    const d = data(i);
    const time = opts.timeField ? new Date(String(d[opts.timeField])) : at;
    return { dataSourceId: sourceId, recordId: String(d.id), data: d, keyOrder: Object.keys(d), revision: 1, createdAt: at, lastUpdated: at, recordedAt: time };
  });
  await Records.collection.insertMany(docs, { ordered: false });
  await DataSource.updateOne({ _id: sourceId }, { $set: { recordCount: count, revision: 1, fields: Object.keys(data(0)), fieldTypes: opts.fieldTypes ?? {} } });
  return ds;
}
