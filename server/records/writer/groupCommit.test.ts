import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IngestResult } from '@common/schemas/records/ingest';
import { startTestServer, type TestServer } from '../../test/harness';
import { flushCount } from './sourceWriter';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_INGEST: '100000' });
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

const newSource = async (body: Record<string, unknown>) => (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Burst', ...body } })).body as { id: string; sourceId: string; ingestKey: string };
const rawAll = async (id: string) => (await s.http('GET', `/api/data/raw?dataSourceId=${id}&limit=1000`)).body as { total: number; records: { recordId: string; data: { n: number; k?: string } }[] };

describe('bursts cost one write: concurrent single-record requests to one source are group-committed', () => {
  it('writes 200 concurrent requests (new and repeated keys) in far fewer flushes, each answered with its own exact counts', async () => {
    const keyed = await newSource({ primaryKey: 'k' });
    const log = await newSource({ appendOnly: true });
    const upserted: number[] = [];
    const off = s.app.ctx.events.on('records.upserted', (e) => void upserted.push(e.records.length));
    const before = flushCount(s.app.ctx);
    // 150 requests to the keyed source over 50 keys (each key three times), 50 to the append-only one.
    const sends = Array.from({ length: 200 }, (_, n) => {
      const ds = n < 150 ? keyed : log;
      const record = n < 150 ? { k: `key-${n % 50}`, n } : { n };
      return s.http<IngestResult>('POST', `/api/data/sources/${ds.sourceId}/records`, { body: record, token: ds.ingestKey }).then((r) => ({ n, r }));
    });
    const answers = await Promise.all(sends);
    off();
    const flushes = flushCount(s.app.ctx) - before;

    for (const { n, r } of answers) {
      expect(r.status, `request ${n}`).toBe(200);
      expect(r.body.inserted + r.body.updated, `request ${n}`).toBe(1);
      expect(r.body.warnings).toEqual([]);
    }
    // Per key, exactly one request inserted it and the other two updated it.
    const keyedAnswers = answers.filter((a) => a.n < 150);
    for (let key = 0; key < 50; key++) {
      const mine = keyedAnswers.filter((a) => a.n % 50 === key);
      expect(mine.filter((a) => a.r.body.inserted === 1), `key-${key}`).toHaveLength(1);
    }
    expect(answers.filter((a) => a.n >= 150).every((a) => a.r.body.inserted === 1)).toBe(true);

    const stored = await rawAll(keyed.id);
    expect(stored.total).toBe(50);
    expect(new Set(stored.records.map((r) => r.recordId)).size).toBe(50);
    // Each key holds one of the values its requests sent, the one written last.
    for (const r of stored.records) expect(Number(r.recordId.slice(4))).toBe(r.data.n % 50);
    const kept = await rawAll(log.id);
    expect(kept.total).toBe(50);
    expect(kept.records.map((r) => r.data.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => 150 + i));

    // One announcement per flush, none per request; far fewer flushes than requests.
    expect(upserted).toHaveLength(flushes);
    expect(upserted.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(200);
    expect(flushes).toBeLessThan(100);
    const sources = (await s.http('GET', '/api/data/sources')).body as { id: string; recordCount: number }[];
    expect(sources.find((d) => d.id === keyed.id)!.recordCount).toBe(50);
    expect(sources.find((d) => d.id === log.id)!.recordCount).toBe(50);
  });

  it('loses no record of one source while another source\'s batched updates are written (transactions on the offline engine)', async () => {
    const keyed = await newSource({ primaryKey: 'k' });
    const log = await newSource({ appendOnly: true });
    const keys = Array.from({ length: 20 }, (_, i) => ({ k: `key-${i}`, n: 0 }));
    expect((await s.http('POST', `/api/data/sources/${keyed.sourceId}/records`, { body: keys })).status).toBe(200);
    // Updates of known keys in batches (a replace of known records: a transaction where the engine has them), beside single appends.
    const sends = Array.from({ length: 90 }, (_, n) =>
      n % 3 === 0
        ? s.http('POST', `/api/data/sources/${keyed.sourceId}/records`, { body: keys.map((r) => ({ ...r, n })), token: keyed.ingestKey })
        : s.http('POST', `/api/data/sources/${log.sourceId}/records`, { body: { n }, token: log.ingestKey }),
    );
    for (const r of await Promise.all(sends)) expect(r.status).toBe(200);
    const kept = await rawAll(log.id);
    expect(kept.total).toBe(60);
    expect(kept.records.map((r) => r.data.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 90 }, (_, n) => n).filter((n) => n % 3 !== 0));
    expect((await rawAll(keyed.id)).total).toBe(20);
  });

  it('answers the sender before announcing its write to viewers (the fan-out does not hold the answer)', async () => {
    const ds = await newSource({ appendOnly: true });
    const order: string[] = [];
    const server = s.app.realtime.io.httpServer as http.Server;
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.endsWith('/records')) res.once('finish', () => order.push('answered'));
    };
    server.prependListener('request', onRequest);
    const off = s.app.ctx.events.on('records.upserted', () => void order.push('announced'));
    try {
      const res = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { n: 1 }, token: ds.ingestKey });
      expect(res.status).toBe(200);
      await vi.waitFor(() => expect(order).toContain('announced'));
      expect(order).toEqual(['answered', 'announced']);
    } finally {
      off();
      server.off('request', onRequest);
    }
  });

  it('answers a request refused in a flush alone: the other requests of the flush still land', async () => {
    const ds = await newSource({ primaryKey: 'k' });
    const [good, wrongKey, alsoGood] = await Promise.all([
      s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { k: 1 } }),
      s.http('POST', `/api/data/sources/${ds.sourceId}/records?primaryKey=other`, { body: { other: 1 } }),
      s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: [{ k: 2 }, { nope: 1 }] }),
    ]);
    expect(good.body).toMatchObject({ inserted: 1 });
    expect(wrongKey.status).toBe(409);
    expect(alsoGood.body).toMatchObject({ inserted: 1, rejected: 1 });
    expect(alsoGood.body.rejections[0]).toMatchObject({ index: 1, reason: 'record has no primary key field "k"' });
    expect((await rawAll(ds.id)).total).toBe(2);
  });
});
