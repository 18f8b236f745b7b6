import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

let s: TestServer;
beforeAll(async () => {
  // The shipped limits: nothing set.
  s = await startTestServer();
});
afterAll(() => s.close());

describe('the default ingest limits fit real senders', () => {
  it('takes a script at 20 requests/s plus 50 collectd hosts every 10 s on one credential for 30 s, every request answered 2xx', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Metrics', appendOnly: true, retention: { maxRecords: 50 } } })).body;
    const statuses = new Map<number, number>();
    const sends: Promise<void>[] = [];
    const t0 = Date.now();
    // 25 requests a second: every fifth one a host's batch of values, the rest single records.
    for (let n = 0; n < 750; n++) {
      const due = t0 + n * 40;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      const body = n % 5 === 4 ? Array.from({ length: 8 }, (_, i) => ({ host: `host-${n % 50}`, plugin: 'cpu', values: [i] })) : { n, value: n % 7 };
      sends.push(
        s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: ds.ingestKey, body }).then((r) => {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }),
      );
    }
    await Promise.all(sends);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 750 });
  }, 60_000);
});
