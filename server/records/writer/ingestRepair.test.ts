import { describe, expect, it } from 'vitest';
import { outlivingDatabase } from '../../test/database';
import { capturedLog, startTestServer } from '../../test/harness';

// One database outlives the server, as MongoDB does in production.
const db = outlivingDatabase();

describe('the start-up repair of an interrupted change', () => {
  it('is logged: which data sources, and how many records each now counts', async () => {
    const first = await startTestServer({ MONGODB_URI: db.uri });
    const ds = (await first.http('POST', '/api/admin/data-sources', { body: { name: 'Crashed "queue"' } })).body;
    expect((await first.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }, { id: 3 }] } })).status).toBe(200);
    // What a process killed mid-change leaves behind: an open journal entry and a stale count.
    await first.app.ctx.models.DataSource.updateOne({ _id: ds.id }, { $set: { 'ingestJournal.deadbeef00000000': new Date(), recordCount: 1 } });
    await first.close();

    const captured = capturedLog();
    const second = await startTestServer({ MONGODB_URI: db.uri }, captured.log);
    try {
      const repairs = captured.lines.filter((l) => l.includes('repaired'));
      expect(repairs).toEqual([
        `warn repaired 1 data source(s) that a stopped process left in the middle of a change; count, fields and revision re-derived from their records: ${ds.sourceId} "Crashed \\"queue\\"" (3 records)`,
      ]);
      const listed = (await second.http('GET', '/api/data/sources')).body.find((d: { id: string }) => d.id === ds.id);
      expect(listed.recordCount).toBe(3);
    } finally {
      await second.close();
    }
  });
});
