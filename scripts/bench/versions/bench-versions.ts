/**
 * `npm run bench:versions`: what keeping every version costs a dashboard save.
 * - A save with versioning (the product's `updateDashboard`: read, compare-and-set on the version,
 *   the version's document inserted in the same transaction, its summary in words) against the same
 *   save without it (the code of a save before versions: read, update, announce), in process, no
 *   HTTP: saves per second, alternating turns, best of each. Goal: a ratio of at least 0.9.
 * - The same with a history already stored (BENCH_HISTORY versions, default 1,000, in the versions
 *   collection): on the offline engine every insert costs time growing with the square of its
 *   collection's size, so this is where versioning pays.
 * - A save through the API (PATCH with If-Match, the admin token) p50 / p99, for scale.
 * BENCH_SAVES (default 30) saves per turn, BENCH_TURNS (default 3) turns; `TEST_DB_ENGINE=auto`
 * runs on mongod where one can be had (the default is the offline engine, as the tests).
 */
import { startTestServer, type TestServer } from '../../../server/test/harness';
import { buildDashboard, buildSource } from '../../../server/test/factories';
import { updateDashboard } from '../../../server/dashboards/dashboards';
import { versionsOf } from '../../../server/dashboards/versions/versionModel';
import type { AppContext, DashboardDoc } from '../../../server/core';
import { dashboardConfiguration, encodeKeys, presentDashboard } from '../../../server/core';
import type { DashboardDto, DashboardTab } from '../../../common/schemas/dashboard';
import { TEMPLATES } from '../../../common/widgets/templates';

const SAVES = Number(process.env.BENCH_SAVES ?? 30);
const TURNS = Number(process.env.BENCH_TURNS ?? 3);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1000);

/** A save as it was before versions: read the dashboard, set the change, announce it (no version, no compare-and-set, no transaction). */
async function saveWithoutVersions(ctx: AppContext, id: string, tabs: DashboardTab[]): Promise<DashboardDto> {
  const before = await ctx.models.Dashboard.findById(id).lean<DashboardDoc>();
  if (!before) throw new Error('no dashboard');
  const configuration = encodeKeys({ ...dashboardConfiguration(before), tabs });
  const after = await ctx.models.Dashboard.findByIdAndUpdate(before._id, { $set: { configuration }, $inc: { revision: 1 } }, { returnDocument: 'after' }).lean<DashboardDoc>();
  const source = after!.dataSourceId ? await ctx.models.DataSource.findById(after!.dataSourceId).lean() : null;
  const dto = presentDashboard(after!, source?.name ?? null);
  ctx.events.emit('dashboard.changed', { dashboard: dto, wasPublished: Boolean(before.isPublished), previousDataSourceId: before.dataSourceId ?? null });
  return dto;
}

/** The template's tabs with the first widget renamed (every save changes something, as a person's does). */
const renamed = (tabs: DashboardTab[], n: number): DashboardTab[] =>
  tabs.map((t, i) => (i === 0 ? { ...t, widgets: t.widgets.map((w, j) => (j === 0 ? { ...w, name: `Open ${n}` } : w)) } : t));

/** Saves per second over SAVES sequential saves. */
async function rate(save: (n: number) => Promise<unknown>): Promise<number> {
  const t = performance.now();
  for (let n = 0; n < SAVES; n++) await save(n);
  return SAVES / ((performance.now() - t) / 1000);
}

async function compare(s: TestServer, label: string, versioned: DashboardDto, plain: DashboardDto, tabs: DashboardTab[]): Promise<number> {
  const best = { versioned: 0, plain: 0 };
  let k = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    best.plain = Math.max(best.plain, await rate(() => saveWithoutVersions(s.app.ctx, plain.id, renamed(tabs, k++))));
    best.versioned = Math.max(best.versioned, await rate(() => updateDashboard(s.app.ctx, versioned.id, { configuration: { tabs: renamed(tabs, k++) } })));
  }
  const ratio = best.versioned / best.plain;
  console.log(`${label}: with versioning ${best.versioned.toFixed(1)} saves/s, without ${best.plain.toFixed(1)} saves/s — ratio ${ratio.toFixed(2)} (goal >= 0.9)`);
  return ratio;
}

async function main() {
  const s = await startTestServer();
  try {
    const source = await buildSource(s, { name: 'Support', records: [{ status: 'open', priority: 'high', created_at: '2024-01-02T00:00:00Z' }] });
    const tabs = TEMPLATES[0].build({ fields: { status: 'status', priority: 'priority', date: 'created_at' }, values: { open: ['open'], inProgress: ['pending'], closed: ['closed'] } });
    const make = (name: string) => buildDashboard(s, { source, name, configuration: { tabs } });
    console.log(`engine: ${s.app.ctx.db.mode}; a save of the Support queue template (${tabs.reduce((n, t) => n + t.widgets.length, 0)} widgets, ${JSON.stringify(tabs).length} bytes of tabs), ${SAVES} saves a turn, best of ${TURNS} turns`);
    await compare(s, 'empty history', await make('Versioned'), await make('Plain'), tabs);

    // A history already stored, written in one command (as a long-lived deployment would have it).
    const model = versionsOf.of(s.app.ctx);
    const [sample] = await model.find().limit(1).lean();
    await model.insertMany(Array.from({ length: HISTORY }, (_, i) => ({ ...sample, _id: `history:${i}`, dashboardId: 'history', version: i + 1 })), { lean: true });
    await compare(s, `${(await model.countDocuments()).toLocaleString('en-US')} versions stored`, await make('Versioned 2'), await make('Plain 2'), tabs);

    const d = await make('Over HTTP');
    const ms: number[] = [];
    let version = d.version;
    for (let n = 0; n < SAVES; n++) {
      const t = performance.now();
      const res = await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { configuration: { tabs: renamed(tabs, n) } }, headers: { 'if-match': `"${version}"` } });
      ms.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}: ${res.text}`);
      version = res.body.version;
    }
    ms.sort((a, b) => a - b);
    console.log(`PATCH with If-Match over HTTP: p50 ${ms[Math.floor(ms.length / 2)].toFixed(1)} ms, p99 ${ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))].toFixed(1)} ms`);
  } finally {
    await s.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
