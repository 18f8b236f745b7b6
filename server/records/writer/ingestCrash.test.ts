import mongoose from 'mongoose';
import { afterAll, describe, expect, it } from 'vitest';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { outlivingDatabase } from '../../test/database';
import { eventually } from '../../test/eventually';
import { ADMIN_TOKEN } from '../../test/harness';
import { startServerProcess } from '../../test/processes';

type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

const servers: ServerProcess[] = [];
// Stopped before the database (afterAll hooks run last registered first).
const db = outlivingDatabase();
afterAll(async () => {
  for (const p of servers) await p.stop();
});

const start = async () => {
  // A sweep tick a second: a repaired source is counted again on the first two (see the first test).
  const p = await startServerProcess({ MONGODB_URI: db.uri, ADMIN_TOKEN, SEED_DEMO: 'false', ZENDESK_SCHEDULER_TICK_MS: '0', RETENTION_SWEEP_MS: '1000' });
  servers.push(p);
  return p;
};
const call = async <T>(p: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(p.url + path, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
};

interface StoredSource {
  recordCount: number;
  revision: number;
  fields: string[];
  ingestJournal?: Record<string, unknown>;
}
const storedSource = async (id: string) => (await db.conn.collection('datasources').findOne({ _id: new mongoose.Types.ObjectId(id) })) as unknown as StoredSource;
const storedCount = (id: string) => db.conn.collection('records').countDocuments({ dataSourceId: new mongoose.Types.ObjectId(id) });

describe('a server process killed in the middle of an ingest', () => {
  it('leaves a journal entry; the next start derives recordCount, fields and revision from the records', async () => {
    const first = await start();
    const created = await call<{ id: string; sourceId: string }>(first, 'POST', '/api/admin/data-sources', { name: 'Crash test' });
    expect(created.status).toBe(201);
    const { id, sourceId } = created.body;
    const before = await storedSource(id);

    // 10,000 records are written in ten batches: enough time to be killed between them.
    const records = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, title: `Ticket ${i + 1}`, status: i % 2 ? 'open' : 'closed', priority: i % 3 }));
    const pending = fetch(`${first.url}/api/data/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sourceId, records }),
    }).then((r) => r.status, () => 'connection lost');

    // Kill it (SIGKILL: no cleanup of any kind) once its records have started landing.
    await eventually(async () => {
      const ds = await storedSource(id);
      return Object.keys(ds.ingestJournal ?? {}).length > 0 && (await storedCount(id)) > 0;
    }, { timeout: 60_000, what: 'the first records of the ingest' });
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    expect(await pending).toBe('connection lost');

    // The crash state: the change is still journalled and the source disagrees with its records.
    const crashed = await storedSource(id);
    const written = await storedCount(id);
    expect(Object.keys(crashed.ingestJournal ?? {})).toHaveLength(1);
    expect(written).toBeGreaterThan(0);
    expect(crashed.recordCount).not.toBe(written);
    expect(crashed.fields).toEqual([]);
    expect(crashed.revision).toBe(before.revision + 1);

    const second = await start();
    // The engine may still finish an insert the killed process had sent, after the repair: the
    // sweep's recount of the repaired source brings the count to the records all the same.
    const repaired = await eventually(async () => {
      const listed = await call<DataSourceDto[]>(second, 'GET', '/api/data/sources');
      const source = listed.body.find((d) => d.id === id)!;
      return source.recordCount === (await storedCount(id)) && source;
    }, { timeout: 30_000, what: 'the repaired count to match the records' });
    const stored = repaired.recordCount;
    expect(stored).toBeGreaterThanOrEqual(written);
    expect(repaired.fields).toEqual(['id', 'title', 'status', 'priority']);
    expect(repaired.revision).toBeGreaterThan(crashed.revision);
    const newest = await db.conn.collection('records').find({ dataSourceId: new mongoose.Types.ObjectId(id) }).sort({ revision: -1 }).limit(1).toArray();
    expect(newest[0].revision).toBeLessThan(repaired.revision);
    expect((await storedSource(id)).ingestJournal).toEqual({});
    const raw = await call<{ total: number }>(second, 'GET', `/api/data/raw?dataSourceId=${id}&limit=1`);
    expect(raw.body.total).toBe(stored);

    // The source works on: a further ingest completes and the count still matches the records.
    const more = Array.from({ length: 5 }, (_, i) => ({ id: 100_000 + i, title: 'After the crash', status: 'open', priority: 1 }));
    const again = await call<{ inserted: number }>(second, 'POST', '/api/data/ingest', { sourceId, records: more });
    expect(again.status).toBe(200);
    expect(again.body.inserted).toBe(5);
    const final = await storedSource(id);
    expect(final.recordCount).toBe(stored + 5);
    expect(await storedCount(id)).toBe(stored + 5);
    expect(final.ingestJournal).toEqual({});
    // The next test starts from an empty collection (on the offline engine every insert costs time growing with the square of it).
    await db.conn.collection('records').deleteMany({});
  }, 180_000);

  it('with an Idempotency-Key, a retry after the kill stores each record of an append-only request once', async () => {
    const first = await start();
    const { sourceId, id } = (await call<{ id: string; sourceId: string }>(first, 'POST', '/api/admin/data-sources', { name: 'Retried' })).body;
    // Two insert commands (5,000 a command): the kill comes once the first has landed, while the
    // second (as large, so it takes long enough on a busy machine) is under way.
    const body = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ n: i, note: `Event ${i}` })));
    const send = (p: ServerProcess) =>
      fetch(`${p.url}/api/data/sources/${sourceId}/records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': 'nightly-2026-11-26' },
        body,
      });
    const pending = send(first).then((r) => r.status, () => 'connection lost');
    await eventually(async () => (await storedCount(id)) > 0, { timeout: 60_000, what: 'the first records of the request' });
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    expect(await pending).toBe('connection lost');
    const written = await storedCount(id);
    expect(written).toBeGreaterThan(0);

    // The sender retries: the key is still pending (its writer may be alive for all the new process knows): 409.
    const second = await start();
    // Within the key's 60 s in-flight time, however long the restart took on a busy machine.
    await db.conn.collection('idempotencykeys').updateMany({}, { $set: { startedAt: new Date() } });
    const busy = await send(second);
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_in_flight');
    // Once the in-flight time has passed (60 s, moved back here) the retry runs and rewrites the same records.
    await db.conn.collection('idempotencykeys').updateMany({}, { $set: { startedAt: new Date(Date.now() - 5 * 60_000) } });
    const retried = await send(second);
    expect(retried.status).toBe(200);
    expect(await storedCount(id)).toBe(10_000);
    const replay = await send(second);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await storedCount(id)).toBe(10_000);
  }, 180_000);
});
