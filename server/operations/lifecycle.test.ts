import http from 'node:http';
import net from 'node:net';
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { outlivingDatabase } from '../test/database';
import { eventually } from '../test/eventually';
import { ADMIN_TOKEN } from '../test/harness';
import { exitOf, startServerProcess } from '../test/processes';

// The database outlives the server: what the stop wrote is read afterwards.
const db = outlivingDatabase();

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

/** The port of the METRICS_PORT listener, as the server logged it. */
const metricsUrl = (log: () => string) => eventually(() => /metrics: (http:\/\/[^/\s"]+)\/metrics/.exec(log())?.[1] ?? null, { what: 'the metrics line' });

/** A POST whose head and first half of body are sent now, the rest when `finish()` is called. */
function heldWrite(url: string, path: string, body: string) {
  const { hostname, port } = new URL(url);
  const req = http.request({ host: hostname, port, path, method: 'POST', agent: false, headers: { ...admin, 'content-length': Buffer.byteLength(body) } });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

describe('JSON logs, request ids and the probes', () => {
  it('every line is JSON; X-Request-Id is kept when sane, made otherwise, echoed and on every line the request causes; /readyz turns 503 at SIGTERM', async () => {
    const server = await startServerProcess({ MONGODB_URI: db.uri, ADMIN_TOKEN, SEED_DEMO: 'false', ZENDESK_SCHEDULER_TICK_MS: '0', LOG_FORMAT: 'json', METRICS_PORT: '0', SHUTDOWN_GRACE_SECONDS: '2' });
    const kept = await fetch(`${server.url}/livez`, { headers: { 'x-request-id': 'probe.1_A-b' } });
    expect(kept.status).toBe(200);
    expect(kept.headers.get('x-request-id')).toBe('probe.1_A-b');
    const made = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'two words"\\' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(made.headers.get('x-request-id')).not.toContain('two');

    // An upload cut short: the error line and the request line both carry its id.
    await new Promise<void>((resolve) => {
      const { hostname, port } = new URL(server.url);
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(`POST /api/data/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nX-Request-Id: cut-short-7\r\nContent-Length: 1000\r\n\r\n{"records":[`);
        setImmediate(() => socket.destroy());
        resolve();
      });
    });
    const lines = () => server.log().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const ofRequest = await eventually(() => {
      const mine = lines().filter((l) => l.reqId === 'cut-short-7');
      return mine.length >= 2 && mine.some((l) => l.msg === 'request') ? mine : null;
    }, { what: 'two lines of the cut request' });
    expect(ofRequest.find((l) => l.msg === 'request')).toMatchObject({ level: 'info', method: 'POST', route: '/api/data/ingest', callerKind: 'adminToken' });
    expect(ofRequest.some((l) => String(l.msg).includes('client connection error'))).toBe(true);
    const healthLine = lines().find((l) => l.reqId === made.headers.get('x-request-id'));
    expect(healthLine).toMatchObject({ msg: 'request', route: '/api/health', status: 200, callerKind: 'anonymous', durationMs: expect.any(Number) });
    expect(server.log()).not.toContain(ADMIN_TOKEN);

    // Metrics: not on the main port without a token; on the loopback listener.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const scraped = await fetch(`${await metricsUrl(server.log)}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}');

    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    const draining = await eventually(async () => {
      const r = await fetch(`${server.url}/readyz`);
      return r.status === 503 ? ((await r.json()) as { notReady: string[] }) : null;
    }, { what: '/readyz 503' });
    expect(draining.notReady).toEqual(['draining']);
    expect((await fetch(`${server.url}/livez`)).status).toBe(200); // still serving during the grace
    expect((await exited).code).toBe(0);
    for (const l of lines()) expect(l).toEqual(expect.objectContaining({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) }));
  }, 60_000);
});

describe('SIGTERM during a burst of writes', () => {
  it('60 concurrent writes under way: every one answered 2xx and stored, exit 0', async () => {
    const server = await startServerProcess({ MONGODB_URI: db.uri, ADMIN_TOKEN, SEED_DEMO: 'false', ZENDESK_SCHEDULER_TICK_MS: '0', METRICS_PORT: '0', SHUTDOWN_GRACE_SECONDS: '0' });
    const ds = (await (await fetch(`${server.url}/api/admin/data-sources`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Burst', primaryKey: 'id' }) })).json()) as { id: string; sourceId: string };
    const writes = Array.from({ length: 60 }, (_, i) => heldWrite(server.url, `/api/data/sources/${ds.sourceId}/records`, JSON.stringify([{ id: i, note: `write ${i} `.padEnd(200, '.') }])));
    // All 60 are being handled (their bodies half read) when the signal comes.
    const metrics = await metricsUrl(server.log);
    await eventually(async () => {
      const text = await (await fetch(`${metrics}/metrics`)).text();
      return /^livedash_http_requests_in_flight 60$/m.test(text);
    }, { what: '60 requests in flight', timeout: 10_000 });
    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    await eventually(() => server.log().includes('SIGTERM: shutting down'));
    // New connections are refused now (a fresh one: fetch would reuse its pooled keep-alive
    // connection, which is answered, with `connection: close`); the ones under way finish their bodies.
    const { hostname, port } = new URL(server.url);
    const refused = await new Promise<string>((resolve) => {
      const c = net.connect(Number(port), hostname, () => resolve('connected'));
      c.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    // One after another, each when the one before is answered: the last bodies arrive well after the
    // server stopped listening (a stop that cut requests after a fixed second would lose them).
    const answers = [];
    for (const w of writes) {
      w.finish();
      answers.push(await w.answer);
    }
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expect((await exited).code).toBe(0);
    const stored = await db.conn.collection('records').countDocuments({ dataSourceId: new mongoose.Types.ObjectId(ds.id) });
    expect(stored).toBe(60);
    expect(server.log()).toMatch(/stopped in \d+ ms/);
  }, 60_000);
});

describe('a second signal', () => {
  it('exits at once, without waiting for the grace', async () => {
    const server = await startServerProcess({ MONGODB_URI: db.uri, ADMIN_TOKEN, SEED_DEMO: 'false', ZENDESK_SCHEDULER_TICK_MS: '0', SHUTDOWN_GRACE_SECONDS: '60' });
    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    await eventually(() => server.log().includes('SIGTERM: shutting down'));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    server.child.kill('SIGINT');
    expect((await exited).code).toBe(130);
    expect(server.log()).toContain('second signal (SIGINT): exiting now');
  }, 60_000);
});
