import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, buildSource, type BuiltSource } from '../test/factories';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import type { ImportPreviewDto } from '@common/schemas/imports';
import { freePort } from '../test/processes';
import { eventually } from '../test/eventually';
import { join, openSocket } from '../test/sockets';

const METRICS_TOKEN = 'metrics-token-0123456789';
let s: TestServer;
let source: BuiltSource;
let dashboardId: string;

beforeAll(async () => {
  s = await startTestServer({ METRICS_TOKEN });
  source = await buildSource(s, { name: 'Orders', primaryKey: 'id' });
  dashboardId = (await buildDashboard(s, { source, published: true })).id;
});
afterAll(() => s?.close());

const scrape = async (token: string | null = METRICS_TOKEN) => {
  const res = await fetch(`${s.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};

/** `name{labels} value` lines of the text format, labels parsed. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const sum = (list: ReturnType<typeof samples>, name: string, labels: Record<string, string> = {}) =>
  list.filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v)).reduce((n, x) => n + x.value, 0);

/** Traffic carrying ids, keys and tokens in its paths: none of them may become a label. */
async function trafficWithIds() {
  const post = await fetch(`${s.url}/api/data/sources/${source.sourceId}/records?key=${source.ingestKey}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ id: 1, n: 2 }, { id: 2, n: 3 }, { n: 4 }]),
  });
  expect(post.status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await s.http('GET', `/api/dashboards/${dashboardId}`, { token: null })).status).toBe(200);
  expect((await s.http('GET', `/api/admin/dashboards/${dashboardId}`)).status).toBe(200);
  expect((await s.http('GET', '/api/dashboards/0123456789abcdef01234567', { token: null })).status).toBe(404);
  expect((await s.http('GET', `/api/nothing/${source.id}`, { token: null })).status).toBe(404);
}

describe('probes', () => {
  it('/livez answers 200; /readyz 200 naming its checks', async () => {
    expect((await s.http('GET', '/livez', { token: null })).status).toBe(200);
    const ready = await s.http('GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok' } });
    // /api/health as it was.
    expect((await s.http('GET', '/api/health', { token: null })).body).toEqual({ status: 'ok', database: { mode: s.app.ctx.db.mode } });
  });
});

describe('GET /metrics', () => {
  it('asks for the metrics token', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('wrong-token-0123456789')).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
  });

  it('names routes by template, never by the ids, keys or tokens of their paths; counts ingests, flushes, view-cache hits, sockets', async () => {
    const viewer = await openSocket(s.url);
    expect((await join(viewer, 'dashboard:join', dashboardId)).ok).toBe(true);
    await trafficWithIds();
    const { text } = await scrape();
    for (const secret of [source.id, source.sourceId, source.ingestKey, dashboardId, '0123456789abcdef01234567']) expect(text).not.toContain(secret);
    const all = samples(text);
    const routes = new Set(all.filter((x) => x.name === 'http_request_duration_seconds_count').map((x) => x.labels.route));
    for (const r of ['/api/data/sources/:sourceId/records', '/api/dashboards/:id', '/api/admin/dashboards/:id', 'unmatched']) expect([...routes]).toContain(r);
    expect(sum(all, 'http_request_duration_seconds_count', { route: '/api/dashboards/:id', status: '200', method: 'GET' })).toBeGreaterThanOrEqual(2);
    expect(sum(all, 'livedash_ingest_records_total', { outcome: 'accepted' })).toBeGreaterThanOrEqual(2);
    expect(sum(all, 'livedash_ingest_records_total', { outcome: 'rejected' })).toBeGreaterThanOrEqual(1);
    expect(sum(all, 'livedash_flush_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sum(all, 'livedash_flush_requests_sum')).toBeGreaterThanOrEqual(1);
    expect(sum(all, 'livedash_push_latency_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sum(all, 'livedash_view_cache_requests_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(sum(all, 'livedash_view_cache_requests_total', { result: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(sum(all, 'livedash_socketio_connections')).toBe(1);
    expect(sum(all, 'livedash_socketio_room_members', { kind: 'dashboard' })).toBe(1);
    expect(sum(all, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sum(all, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    viewer.disconnect();
  });

  it('counts Import Data rows, read and written', async () => {
    const up = await fetch(`${s.url}/api/admin/imports?fileName=tiny.csv`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' }, body: 'city,n\nOslo,1\nLima,2\nPune,3\n' });
    const preview = (await up.json()) as ImportPreviewDto;
    expect(up.status).toBe(201);
    const plan = { settings: preview.settings, columns: preview.columns.map((c) => ({ name: c.name, field: c.name, type: c.type })), target: { kind: 'new', name: 'Cities' }, key: null, mode: 'append' };
    expect((await s.http('POST', `/api/admin/imports/${preview.id}/run`, { body: plan })).status).toBe(202);
    await eventually(async () => {
      const all = samples((await scrape()).text);
      expect(sum(all, 'livedash_import_rows_total', { outcome: 'read' })).toBe(3);
      expect(sum(all, 'livedash_import_rows_total', { outcome: 'written' })).toBe(3);
    }, { timeout: 15_000 });
  });

  it('passes `promtool check metrics`', async () => {
    if (!fs.existsSync('/usr/bin/promtool')) return console.warn('SKIPPED: promtool is not installed (apt-get install prometheus)');
    await trafficWithIds();
    const { text } = await scrape();
    const check = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    // prom-client's own gauges nodejs_active_{handles,requests,resources}_total break the "_total" rule; nothing of ours may.
    const findings = `${check.stdout}${check.stderr}`.split('\n').filter((l) => l.trim() && !/^nodejs_active_\w+_total non-counter/.test(l));
    expect(findings).toEqual([]);
    expect([0, 3]).toContain(check.status); // 3: lint findings only (the ones above)
  });

  it('is scraped by a real Prometheus with the token: target up, the ingest counter queryable in PromQL', async () => {
    if (!fs.existsSync('/usr/bin/prometheus')) return console.warn('SKIPPED: prometheus is not installed (apt-get install prometheus)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-prom-'));
    const port = await freePort();
    const target = new URL(s.url).host;
    fs.writeFileSync(path.join(dir, 'token'), METRICS_TOKEN);
    fs.writeFileSync(path.join(dir, 'prometheus.yml'), [
      'global: { scrape_interval: 1s, scrape_timeout: 1s }',
      'scrape_configs:',
      '  - job_name: livedash',
      `    authorization: { type: Bearer, credentials_file: ${path.join(dir, 'token')} }`,
      `    static_configs: [ { targets: ["${target}"] } ]`,
    ].join('\n'));
    const prom = spawn('/usr/bin/prometheus', [
      `--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    prom.stdout.on('data', (d) => (out += d));
    prom.stderr.on('data', (d) => (out += d));
    const query = async (q: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`).catch(() => null);
      if (!res?.ok) return null;
      const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
      return body.data.result.map((r) => Number(r.value[1]));
    };
    try {
      await trafficWithIds();
      await eventually(async () => expect(await query('up{job="livedash"}'), out).toEqual([1]), { timeout: 20_000 });
      await eventually(async () => expect((await query('sum(livedash_ingest_records_total{outcome="accepted"})'))?.[0]).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    } finally {
      const exited = new Promise((r) => prom.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
