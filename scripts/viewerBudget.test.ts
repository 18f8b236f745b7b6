import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The JavaScript a first visit of a public dashboard with charts downloads, read from the built
 * app's manifest (dist/web/.vite/manifest.json): the entry, the viewer's route chunk and the chart
 * drawing (ECharts core, line and bar: the demo dashboard's charts) with every chunk they import
 * statically, as the brotli files the server sends.
 * The budget is 300 KB: a viewer on a phone's network sees its numbers in a few seconds.
 */
const BUDGET_KB = 300;
const DIST = path.resolve(process.env.WEB_DIST ?? 'dist/web');
const MANIFEST = path.join(DIST, '.vite/manifest.json');
/** An attribute antd's style engine (@ant-design/cssinjs) writes on every style it inserts. */
const ANTD_MARK = 'data-token-hash';

interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The chunk keys a page loads before it runs: `keys` and their static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not in the build's manifest`);
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return seen;
}

/** Brotli size of a built file (the precompressed .br the server sends; the file itself when under 1 KB). */
const brotliBytes = (file: string) => {
  const br = path.join(DIST, `${file}.br`);
  return fs.statSync(fs.existsSync(br) ? br : path.join(DIST, file)).size;
};

/**
 * The chunks of a first visit: the entry and a share link's page — the viewer page (whichever
 * chunk holds it) and the link's few lines; a dashboard's own address loads the viewer page alone,
 * so this counts a little more — and the chart drawing the demo dashboard needs: ECharts' core
 * chunk (with ChartView) and its line and bar parts (named so by vite.config.ts).
 */
function firstVisit(m: Manifest): Set<string> {
  const charts = Object.keys(m).filter((key) => ['echarts', 'echarts-line', 'echarts-bar'].includes(m[key].name ?? ''));
  expect(charts.length, 'the ECharts core, line and bar chunks').toBe(3);
  return staticClosure(m, ['index.html', 'src/public/share/SharePage.tsx', ...charts]);
}

describe.skipIf(process.env.SKIP_WEB_BUILD === '1' && !fs.existsSync(MANIFEST))('first visit of a public dashboard', () => {
  const manifest = () => JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;

  it(`downloads at most ${BUDGET_KB} KB of JavaScript (brotli), and no antd`, () => {
    const m = manifest();
    const chunks = [...firstVisit(m)].map((key) => ({ key, file: m[key].file, bytes: brotliBytes(m[key].file) }));
    const total = chunks.reduce((n, c) => n + c.bytes, 0);
    const listing = chunks.sort((a, b) => b.bytes - a.bytes).map((c) => `${(c.bytes / 1024).toFixed(1).padStart(6)} KB  ${c.file}`).join('\n');
    expect.soft(total / 1024, `first-visit JavaScript:\n${listing}`).toBeLessThanOrEqual(BUDGET_KB);
    // antd stays in the chunks that open on demand (filter bar, tables, boards, error pages): no
    // chunk of the first visit holds its style engine, which every antd component imports.
    expect(chunks.filter((c) => fs.readFileSync(path.join(DIST, c.file), 'utf8').includes(ANTD_MARK)).map((c) => c.file)).toEqual([]);
  });

  it('leaves the tooltip, tables, boards and the filter bar to load when used', () => {
    const m = manifest();
    const eager = firstVisit(m);
    const tooltip = Object.keys(m).filter((key) => m[key].name === 'echarts-tooltip');
    expect(tooltip.length, 'the ECharts tooltip chunk').toBe(1);
    expect(eager.has(tooltip[0])).toBe(false);
    const lazy = ['src/public/viewer/table/TableView.tsx', 'src/public/viewer/buckets/BucketView.tsx', 'src/public/viewer/filters/FilterBar.tsx', 'src/public/viewer/lazy/ViewerAntd.tsx'];
    expect(lazy.filter((key) => eager.has(key))).toEqual([]);
    for (const key of lazy) expect(m[key], key).toBeDefined();
  });
});
