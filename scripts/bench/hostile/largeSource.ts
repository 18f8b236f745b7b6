/**
 * Part of `npm run bench:hostile`: a large data source (BENCH_RECORDS, default 60,000 records) and
 * the work that used to freeze the process on it — 10 alert rules with percentile and distinct
 * metrics created, a write with them held, the first anonymous view of its dashboard, its CSV
 * export. The source is made with one bulk write straight into the records collection (on the
 * offline engine every modifying command costs the square of the collection's size: one
 * `insertMany` pays it once), then each case runs against the real server while bench:hostile
 * watches the event loop.
 */
import { alertsHandle } from '../../../server/alerts';
import { buildDashboard, buildLargeSource } from '../../../server/test/factories';
import type { TestServer } from '../../../server/test/harness';

export const RECORDS = Number(process.env.BENCH_RECORDS ?? 60_000);
const DAY = 86_400_000;

/** A case of the large source: what it does (resolves once its work is done, the answer's status and size). */
export interface LargeSourceCase {
  label: string;
  run(): Promise<{ status: string; size?: number; note?: string }>;
}

/** The source, its published dashboard (a KPI tile and a table of every field), and the cases that run on them. */
export async function largeSourceCases(s: TestServer, get: (path: string, headers: Record<string, string>) => Promise<{ status: string; size: number }>, log: (line: string) => void): Promise<LargeSourceCase[]> {
  const now = Date.now();
  const data = (i: number) => ({
    id: `r${i}`,
    amount: ((i * 7919) % 10_007) / 10,
    category: `c${(i * 31) % 5_000}`,
    region: ['north', 'south', 'east', 'west'][i % 4],
    created_at: new Date(now - (i % 45) * DAY - (i % 1440) * 60_000).toISOString(),
  });
  let t = performance.now();
  const fieldTypes = { id: 'text', amount: 'number', category: 'text', region: 'text', created_at: 'datetime' };
  const ds = await buildLargeSource(s, RECORDS, data, { timeField: 'created_at', fieldTypes });
  log(`built the source: ${RECORDS.toLocaleString('en-US')} records in one insertMany, ${Math.round((performance.now() - t) / 1000)} s`);
  const widgets = [
    { id: 'k1', type: 'kpi', configuration: { metric: 'p95', valueField: 'amount' } },
    { id: 't1', type: 'table', configuration: {} },
  ];
  const dashboard = await buildDashboard(s, { source: { id: ds.id }, published: true, widgets });
  const engine = () => alertsHandle.of(s.app.ctx).engine;

  const metrics = [
    ['p95', 'amount'], ['p99', 'amount'], ['median', 'amount'], ['p90', 'amount'], ['distinct', 'category'],
    ['distinct', 'region'], ['p95', 'amount'], ['distinct', 'id'], ['p99', 'amount'], ['median', 'amount'],
  ] as const;
  const rule = (i: number) => ({
    name: `Heavy ${i + 1}: ${metrics[i][0]} of ${metrics[i][1]}`,
    dataSourceId: ds.id,
    metric: metrics[i][0],
    valueField: metrics[i][1],
    dateField: 'created_at',
    // Half over a sliding range (totals per time slot), half over all time; one filtered.
    range: i % 2 ? { kind: 'all' } : { kind: 'relative', last: '30d' },
    filters: i === 4 ? [{ field: 'region', operator: 'neq', value: 'west' }] : [],
    condition: { operator: 'gt', value: 1e12 },
    ...(i === 0 ? { widget: { dashboardId: dashboard.id, widgetId: 'k1' } } : {}),
  });
  const ids: string[] = [];
  /** Resolves once every rule is held and evaluated at least `after` times more than `since`. */
  const evaluated = async (since: number) => {
    for (;;) {
      const runs = ids.map((id) => engine().rules.get(id));
      if (runs.every((r) => r && r.evaluations > since)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // Read by another thread: the client's own work on a large answer is not the server's.
  const read = (path: string, headers: Record<string, string> = {}) => get(path, headers);

  return [
    {
      label: `10 heavy alert rules created (percentiles, distinct), ${RECORDS.toLocaleString('en-US')} records`,
      async run() {
        const statuses: number[] = [];
        for (let i = 0; i < metrics.length; i++) {
          const res = await s.http('POST', '/api/admin/alerts', { body: rule(i) });
          statuses.push(res.status);
          if (res.status === 201) ids.push(res.body.id);
          else return { status: String(res.status), note: JSON.stringify(res.body).slice(0, 120) };
        }
        await evaluated(0);
        return { status: [...new Set(statuses)].join(','), note: `${ids.length} rules held and evaluated` };
      },
    },
    {
      label: `a write to the source with the 10 rules, ${RECORDS.toLocaleString('en-US')} records`,
      async run() {
        const before = Math.min(...ids.map((id) => engine().rules.get(id)?.evaluations ?? 0));
        t = performance.now();
        const res = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: ds.ingestKey, body: [data(RECORDS + 1)] });
        const writeMs = performance.now() - t;
        await evaluated(before);
        return { status: String(res.status), note: `the write's answer ${Math.round(writeMs / 1000)} s (the engine's); every rule evaluated it` };
      },
    },
    {
      label: `first anonymous view of the dashboard, ${RECORDS.toLocaleString('en-US')} records`,
      run: () => read(`/api/dashboards/${dashboard.id}`, { 'accept-encoding': 'br, gzip' }),
    },
    {
      label: `CSV export of the dashboard, ${RECORDS.toLocaleString('en-US')} records`,
      run: () => read(`/api/dashboards/${dashboard.id}/export`, { 'accept-encoding': 'gzip' }),
    },
  ];
}
