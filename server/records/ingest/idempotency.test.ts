import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_INGEST: '100000' });
});
afterAll(() => s?.close());

async function newSource(name: string) {
  const res = await s.http('POST', '/api/admin/data-sources', { body: { name } });
  expect(res.status).toBe(201);
  return res.body as { id: string; sourceId: string; ingestKey: string };
}
const stored = (ds: { id: string }) => s.app.ctx.models.Record.countDocuments({ dataSourceId: ds.id });
/** The key document of the latest keyed request (the test sends them one at a time). */
const latestKey = async () => (await s.app.ctx.models.IdempotencyKey.find().sort({ startedAt: -1 }).limit(1).lean())[0];

describe('Idempotency-Key on ingest', () => {
  it('answers a retry with the first answer and writes nothing: one record on an append-only source', async () => {
    const ds = await newSource('Append only');
    const send = (body: unknown, key: string, token = ds.ingestKey) =>
      s.http('POST', `/api/data/sources/${ds.sourceId}/records?timestamp=${Math.random()}`, { token, body, headers: { 'idempotency-key': key } });
    const first = await send({ event: 'paid', amount: 10 }, 'order-1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ inserted: 1 });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send({ event: 'paid', amount: 10 }, 'order-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await stored(ds)).toBe(1);

    // The same key with another body: 422, nothing written.
    const other = await send({ event: 'paid', amount: 99 }, 'order-1');
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(await stored(ds)).toBe(1);
    // Keys are scoped by credential: the admin token's "order-1" is another key.
    expect((await send({ event: 'paid', amount: 10 }, 'order-1', ADMIN_TOKEN)).headers.get('idempotent-replayed')).toBeNull();
    expect(await stored(ds)).toBe(2);
    // Without a key every POST appends, as before.
    await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: ds.ingestKey, body: { event: 'x' } });
    await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: ds.ingestKey, body: { event: 'x' } });
    expect(await stored(ds)).toBe(4);
  });

  it('bounds the key (400 past 255 characters), answers 409 while the first is in flight, and a retry after a crash rewrites the same records', async () => {
    const ds = await newSource('Crashes');
    const send = (key: string) => s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: ds.ingestKey, body: [{ n: 1 }, { n: 2 }, { n: 3 }], headers: { 'idempotency-key': key } });
    const long = await send('k'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ code: 'idempotency_key_invalid' });
    expect(long.body.error.message).toContain('255');
    expect(await stored(ds)).toBe(0);
    expect((await send('k'.repeat(255))).status).toBe(200);

    expect((await send('batch-7')).body).toMatchObject({ inserted: 3 });
    const { IdempotencyKey } = s.app.ctx.models;
    const key = await latestKey();
    // As if the first request were still being written: a duplicate answers 409 and writes nothing.
    await IdempotencyKey.updateOne({ _id: key._id }, { $set: { state: 'pending', startedAt: new Date(), status: null, body: null } });
    const busy = await send('batch-7');
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('idempotency_key_in_flight');
    // As if its process was killed after writing the records, before storing the answer: the retry
    // runs again and writes the same three records under the same ids, not three more.
    await IdempotencyKey.updateOne({ _id: key._id }, { $set: { startedAt: new Date(Date.now() - 5 * 60_000) } });
    const retried = await send('batch-7');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ inserted: 0, updated: 3 });
    expect(await stored(ds)).toBe(6);
    expect((await send('batch-7')).headers.get('idempotent-replayed')).toBe('true');

    // Past 24 hours (the offline engine may not run the TTL monitor) the key is checked on read and answers no more.
    await IdempotencyKey.updateOne({ _id: key._id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await send('batch-7')).headers.get('idempotent-replayed')).toBeNull();
    const stillKept = await IdempotencyKey.findById(key._id).lean();
    expect(stillKept!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // The key and the credential are never stored in clear.
    expect(JSON.stringify(await IdempotencyKey.find().lean())).not.toMatch(/batch-7|kkkk/);
    expect(JSON.stringify(await IdempotencyKey.find().lean())).not.toContain(ds.ingestKey);
  });

  it('works on POST /api/data/ingest too, and releases the key of a refused request', async () => {
    const ds = await newSource('Keyed');
    const body = { sourceId: ds.sourceId, primaryKey: 'id', records: [{ id: 1, v: 'a' }] };
    const send = (b: unknown) => s.http('POST', '/api/data/ingest', { body: b, headers: { 'idempotency-key': 'sync-1' } });
    const first = await send(body);
    expect(first.status).toBe(200);
    const replay = await send(body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const refused = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [] }, headers: { 'idempotency-key': 'sync-2' } });
    expect(refused.status).toBe(400);
    const fixed = await s.http('POST', '/api/data/ingest', { body, headers: { 'idempotency-key': 'sync-2' } });
    expect(fixed.status).toBe(200);
  });
});
