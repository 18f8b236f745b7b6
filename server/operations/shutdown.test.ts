import { spawn } from 'node:child_process';
import { eventually } from '../test/eventually';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { outlivingDatabase } from '../test/database';
import { ADMIN_TOKEN, startTestServer } from '../test/harness';
import { alive, descendants, exitOf, freePort, startServerProcess } from '../test/processes';
import { collect, join, openSocket, type TestSocket } from '../test/sockets';

// The database outlives the server, so what its last flushes wrote can be read afterwards.
const db = outlivingDatabase();

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

describe('SIGTERM', () => {
  it('with 20 viewers connected: the sockets close, then HTTP, then both flushes; exit 0 quickly', async () => {
    const server = await startServerProcess({ MONGODB_URI: db.uri, ADMIN_TOKEN, SEED_DEMO: 'false', ZENDESK_SCHEDULER_TICK_MS: '0', SHUTDOWN_GRACE_SECONDS: '0' });
    const call = (method: string, path: string, body?: unknown) =>
      fetch(server.url + path, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const ds = await call('POST', '/api/admin/data-sources', { name: 'Wall data' });
    const dash = await call('POST', '/api/admin/dashboards', { name: 'Wall', dataSourceId: ds.id, isPublished: true });
    const sockets: TestSocket[] = await Promise.all(Array.from({ length: 20 }, () => openSocket(server.url)));
    for (const ack of await Promise.all(sockets.map((s) => join(s, 'dashboard:join', dash.id)))) expect(ack.ok).toBe(true);
    const told = sockets.map((s) => new Promise<string>((resolve) => s.once('disconnect', (reason) => resolve(reason))));
    // Counted in memory until a flush: the last admin action and the views of the 20 pages.
    await call('PATCH', `/api/admin/dashboards/${dash.id}`, { name: 'Wall, renamed' });

    const t0 = Date.now();
    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    const { code } = await exited;
    const took = Date.now() - t0;

    expect(code).toBe(0);
    expect(took).toBeLessThan(3000);
    expect(await Promise.all(told)).toEqual(Array(20).fill('transport close'));
    expect(server.log()).toMatch(/SIGTERM: shutting down[\s\S]*stopped in \d+ ms/);
    const views = await db.conn.collection('dashboardviewdays').findOne({ dashboardId: dash.id });
    expect(views?.views).toBe(20);
    const renamed = await db.conn.collection('activity').findOne({ kind: 'dashboard.updated', objectId: dash.id });
    expect(renamed?.objectName).toBe('Wall, renamed');
  }, 60_000);

  it('to `npm start` stops npm, the server and its engine, and frees the port', async () => {
    const port = await freePort();
    // --ignore-scripts skips prestart (the web build); `npm start` itself runs as a process manager would start it.
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, SEED_DEMO: 'false', DB_ENGINE: 'jongodb', LOG_LEVEL: 'info', ZENDESK_SCHEDULER_TICK_MS: '0', SHUTDOWN_GRACE_SECONDS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (d) => (out += d));
    npm.stderr.on('data', (d) => (out += d));
    const exited = exitOf(npm);
    await eventually(() => {
      if (npm.exitCode !== null || !out.includes('admin console:')) throw new Error(`npm start did not start:\n${out}`);
    }, { timeout: 40_000, interval: 50 });
    const tree = descendants(npm.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(2); // the server and its engine at least
    await openSocket(`http://127.0.0.1:${port}`); // a viewer connected, as in production

    const t0 = Date.now();
    npm.kill('SIGTERM');
    await exited;
    await eventually(() => expect(tree.filter(alive)).toEqual([]), { timeout: 5_000, interval: 50 });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await portFree(port)).toBe(true);
    expect(out).toMatch(/SIGTERM: shutting down[\s\S]*stopped in \d+ ms/);
  }, 60_000);
});

describe('the stop', () => {
  it('answers, stores and pushes a request whose connection was accepted before the listener closed but whose bytes came after', async () => {
    const s = await startTestServer();
    try {
      const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Last words', primaryKey: 'id' } })).body;
      const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Last words', dataSourceId: ds.id, isPublished: true } })).body;
      const viewer = await openSocket(s.url);
      expect((await join(viewer, 'dashboard:join', dash.id)).ok).toBe(true);
      const pushed = collect(viewer, 'records:upserted');
      // A proxy's connection, accepted, its request not yet sent.
      const server = s.app.realtime.io.httpServer;
      const accepted = new Promise((resolve) => server.once('connection', resolve));
      const conn = net.connect(s.app.port, '127.0.0.1');
      let answer = '';
      conn.on('data', (d) => (answer += d));
      const ended = new Promise((resolve) => conn.once('close', resolve));
      await accepted;

      // The stop begins just after (as a proxy's request is in flight when it does).
      const closing = s.app.close();
      await eventually(() => !server.listening, { interval: 2, what: 'the listener closed' });
      const body = JSON.stringify([{ id: 'last', note: 'sent as the listener closed' }]);
      conn.write(`POST /api/data/sources/${ds.sourceId}/records HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await ended;
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      await closing;
      expect(pushed.items.flatMap((m) => m.records.map((r) => r.recordId))).toEqual(['last']);
    } finally {
      await s.close();
    }
  });
});
