import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildPerson, buildSource } from '../../test/factories';
import { cookieOf, PASSWORD } from '../../test/people';
import { eventually } from '../../test/eventually';
import { exitOf, startServerProcess } from '../../test/processes';
import { readSnapshot, writeSnapshot } from './snapshot';
import { SNAPSHOT_FILE, StartRefused } from './dataDir';

/**
 * The embedded default keeps its data in DATA_DIR: here on the offline engine, which keeps nothing
 * itself (a snapshot restored at start, written while running and at a clean stop). On mongod the
 * folder is its dbPath (startDatabase.test.ts).
 */
const dirs: string[] = [];
const newDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-kept-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const kept = (dir: string, env: Record<string, string> = {}) => startTestServer({ DATA_DIR: dir, DB_ENGINE: 'jongodb', ...env });
const engine = async (s: { http: TestServer['http'] }) => (await s.http('GET', '/api/admin/engine')).body;

describe('a restart of the embedded default', () => {
  it('keeps the team, sessions, tokens, sources, records, keys, dashboards, share links, alerts and activity; seeds the demo and asks for the first admin once', async () => {
    const dir = newDir();
    const first = await kept(dir, { SEED_DEMO: 'true' });
    let before: Record<string, unknown>;
    let secrets: { cookie: string; adminCookie: string; token: string; ingestKey: string; linkToken: string; sourceId: string; dashboardId: string };
    try {
      expect(first.app.seeded).toBe(true);
      expect((await first.http('GET', '/api/auth/setup', { token: null })).body.needed).toBe(true);
      const setup = await first.http('POST', '/api/auth/setup', { token: null, body: { token: ADMIN_TOKEN, email: 'ada@example.com', name: 'Ada', password: PASSWORD } });
      expect(setup.status, JSON.stringify(setup.body)).toBe(201);
      const editor = await buildPerson(first, 'editor');
      const source = await buildSource(first, { name: 'Kept', primaryKey: 'id', records: [{ id: 'a', n: 1, at: '2015-11-30T10:00:00Z' }, { id: 'b', n: 2.5, at: '2015-12-31T10:00:00Z' }] });
      const pushed = await first.http('POST', `/api/data/sources/${source.sourceId}/records`, { token: source.ingestKey, body: [{ id: 'c', n: 3 }] });
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      const dashboard = await buildDashboard(first, { source, published: true, widgets: [{ id: 'k1', type: 'kpi', configuration: { metric: 'count' } }] });
      const link = await first.http('POST', `/api/admin/dashboards/${dashboard.id}/links`, { body: { label: 'Acme', allowCsv: false } });
      expect(link.status, JSON.stringify(link.body)).toBe(201);
      const alert = await first.http('POST', '/api/admin/alerts', { body: { name: 'Too many', dataSourceId: source.id, condition: { operator: 'gt', value: 10 }, channels: [] } });
      expect(alert.status, JSON.stringify(alert.body)).toBe(201);
      secrets = { cookie: editor.cookie, adminCookie: cookieOf(setup.headers), token: editor.token, ingestKey: source.ingestKey, linkToken: link.body.token, sourceId: source.id, dashboardId: dashboard.id };
      before = await everything(first, secrets);
      expect((before.records as unknown[]).length).toBe(3);
    } finally {
      await first.close();
    }
    expect(fs.existsSync(path.join(dir, SNAPSHOT_FILE))).toBe(true);

    const second = await kept(dir, { SEED_DEMO: 'true' });
    try {
      expect(second.app.seeded).toBe(false);
      expect((await second.http('GET', '/api/auth/setup', { token: null })).body.needed).toBe(false);
      const after = await everything(second, secrets);
      expect(after).toEqual(before);
      // Every credential still opens what it opened.
      expect((await second.http('GET', '/api/auth/me', { token: null, headers: { cookie: secrets.cookie } })).status).toBe(200);
      expect((await second.http('GET', '/api/auth/me', { token: null, headers: { cookie: secrets.adminCookie } })).body.user.email).toBe('ada@example.com');
      expect((await second.http('GET', '/api/auth/me', { token: secrets.token })).status).toBe(200);
      expect((await second.http('GET', `/api/share/${secrets.linkToken}`, { token: null })).status).toBe(200);
      const pushed = await second.http('POST', `/api/data/sources/${secrets.sourceId}/records`, { token: secrets.ingestKey, body: [{ id: 'd', n: 4 }] });
      expect(pushed.body).toMatchObject({ inserted: 1 });
      expect((await engine(second)).dataKept).toMatchObject({ kept: 'snapshot', dataDir: dir, snapshot: { file: path.join(dir, SNAPSHOT_FILE), withinSeconds: 5 } });
    } finally {
      await second.close();
    }
  }, 60_000);

  it('writes no snapshot while nothing but the heartbeat moves', async () => {
    const s = await kept(newDir());
    try {
      await buildSource(s, { name: 'One' });
      await eventually(async () => expect((await engine(s)).dataKept.snapshot.unsavedSince).toBeNull(), { timeout: 15_000, interval: 200 });
      const saved = (await engine(s)).dataKept.snapshot.lastSavedAt;
      // The heartbeat beats every 5 s: wait for two beats, then nothing may be waiting to be written.
      let beats = 0;
      const count = (ev: mongoose.mongo.CommandSucceededEvent) => void (ev.commandName === 'update' && beats++);
      const client = s.app.ctx.conn.getClient();
      client.on('commandSucceeded', count);
      try {
        await eventually(() => expect(beats).toBeGreaterThanOrEqual(2), { timeout: 15_000, interval: 100 });
      } finally {
        client.off('commandSucceeded', count);
      }
      expect((await engine(s)).dataKept.snapshot).toMatchObject({ unsavedSince: null, lastSavedAt: saved });
    } finally {
      await s.close();
    }
  }, 40_000);

  it('keeps nothing with DATA_DIR=:memory:', async () => {
    const cwdBefore = fs.readdirSync(process.cwd());
    const first = await startTestServer({ DATA_DIR: ':memory:', DB_ENGINE: 'jongodb' });
    await buildSource(first, { name: 'Gone' });
    expect((await engine(first)).dataKept).toEqual({ kept: 'memory', dataDir: null, snapshot: null });
    await first.close();
    const second = await startTestServer({ DATA_DIR: ':memory:', DB_ENGINE: 'jongodb' });
    try {
      expect((await second.http('GET', '/api/data/sources')).body).toEqual([]);
    } finally {
      await second.close();
    }
    expect(fs.readdirSync(process.cwd())).toEqual(cwdBefore);
  }, 40_000);

  it('never loads a snapshot cut short, and leaves it as it was', async () => {
    const dir = newDir();
    const first = await kept(dir);
    await buildSource(first, { name: 'Half' });
    await first.close();
    const file = path.join(dir, SNAPSHOT_FILE);
    const whole = fs.readFileSync(file);
    fs.writeFileSync(file, whole.subarray(0, whole.length - 20));
    await expect(kept(dir)).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was cut short .*not loaded.*move it out`));
    expect(fs.readFileSync(file)).toEqual(whole.subarray(0, whole.length - 20));
    // A temp file a crash left while writing is not a snapshot: the last good one loads.
    fs.writeFileSync(file, whole);
    fs.writeFileSync(`${file}.tmp`, whole.subarray(0, 100));
    const again = await kept(dir);
    try {
      expect((await again.http('GET', '/api/data/sources')).body.map((d: { name: string }) => d.name)).toEqual(['Half']);
      expect(fs.existsSync(`${file}.tmp`)).toBe(false);
    } finally {
      await again.close();
    }
  }, 40_000);
});

describe('a server killed with kill -9', () => {
  it('keeps what was written before its last snapshot; a second server on the folder refuses; a change left under way is repaired', async () => {
    const dir = newDir();
    const env = { DATA_DIR: dir, DB_ENGINE: 'jongodb', ADMIN_TOKEN, SEED_DEMO: 'false', SHUTDOWN_GRACE_SECONDS: '0' };
    const as = (url: string) => (method: string, p: string, body?: unknown) =>
      fetch(url + p, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const first = await startServerProcess(env);
    const api = as(first.url);
    const source = (await api('POST', '/api/admin/data-sources', { name: 'Killed' })).body;
    const answered = await api('POST', `/api/data/sources/${source.sourceId}/records?primaryKey=id`, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(answered.status).toBe(200);
    const at = Date.now();
    await eventually(async () => {
      const { snapshot } = (await api('GET', '/api/admin/engine')).body.dataKept;
      expect(snapshot.unsavedSince).toBeNull();
      expect(Date.parse(snapshot.lastSavedAt)).toBeGreaterThanOrEqual(at);
    }, { timeout: 20_000, interval: 200 });

    // While it runs, the folder is its own.
    const refused = await kept(dir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StartRefused);
    expect((refused as Error).message).toContain(`DATA_DIR ${dir} is in use by another LiveDash server (process ${first.child.pid}, since `);

    const killed = exitOf(first.child);
    first.child.kill('SIGKILL');
    expect((await killed).signal).toBe('SIGKILL');

    // As if the kill had come in the middle of a change: the snapshot holds its journal entry, and the count is off.
    const file = path.join(dir, SNAPSHOT_FILE);
    const snapshot = (await readSnapshot(file))!;
    const [beat] = snapshot.collections.get('serverprocesses')!;
    expect(Number(beat.pid)).toBe(first.child.pid);
    const ds = snapshot.collections.get('datasources')!.find((d) => String(d._id) === source.id)!;
    ds.ingestJournal = { k1: { at: new Date(), by: { id: beat._id, host: beat.host, pid: Number(beat.pid), since: Date.now() - 60_000 } } };
    ds.recordCount = 99;
    const names = [...snapshot.collections.keys()];
    await writeSnapshot(file, names, async function* (name) {
      yield* snapshot.collections.get(name)!;
    });

    const second = await startServerProcess(env);
    try {
      expect(second.log()).toMatch(/restored \d+ documents in \d+ collections from /);
      expect(second.log()).toMatch(/repaired 1 data source\(s\) that a stopped process left in the middle of a change/);
      const raw = await as(second.url)('GET', `/api/data/raw?dataSourceId=${source.id}&limit=10`);
      expect(raw.body.records.map((r: { data: { id: number } }) => r.data.id).sort()).toEqual([1, 2, 3]);
      const sources = (await as(second.url)('GET', '/api/data/sources')).body;
      expect(sources.find((d: { id: string }) => d.id === source.id).recordCount).toBe(3);
    } finally {
      await second.stop();
    }
  }, 120_000);
});

/** What a person would see of everything kept, read over the API. */
async function everything(s: TestServer, ids: { sourceId: string; dashboardId: string }) {
  const get = async (p: string) => {
    const res = await s.http('GET', p);
    expect(res.status, `${p}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const withoutLastSeen = (rows: Record<string, unknown>[]) => rows.map(({ lastSeenAt: _, ...rest }) => rest);
  return {
    sources: await get('/api/data/sources'),
    records: (await get(`/api/data/raw?dataSourceId=${ids.sourceId}&limit=100`)).records,
    dashboards: await get('/api/admin/dashboards'),
    dashboard: await get(`/api/admin/dashboards/${ids.dashboardId}`),
    links: await get(`/api/admin/dashboards/${ids.dashboardId}/links`),
    // Rules are evaluated again at start: when says nothing of what was kept.
    alerts: (await get('/api/admin/alerts')).map(({ lastEvaluatedAt: _, updatedAt: __, ...rest }: Record<string, unknown>) => rest),
    users: withoutLastSeen(await get('/api/admin/users')),
    activity: await get('/api/admin/activity?limit=200'),
  };
}
