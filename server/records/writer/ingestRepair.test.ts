import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { closeChange, openChange } from '../../core';
import { outlivingDatabase } from '../../test/database';
import { capturedLog, startTestServer } from '../../test/harness';
import { startRetentionSweep } from './retention';

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

  it('counts a repaired source again on the sweep\'s first ticks, so an insert that lands after the repair is counted; never while a change is under way', async () => {
    const captured = capturedLog();
    // A sweep tick only when the test asks for one.
    const s = await startTestServer({ MONGODB_URI: db.uri, RETENTION_SWEEP_MS: '3600000' }, captured.log);
    try {
      const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Late insert' } })).body;
      expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }] } })).status).toBe(200);
      const id = new mongoose.Types.ObjectId(ds.id as string);
      const count = async () => (await s.http('GET', '/api/data/sources')).body.find((d: { id: string }) => d.id === ds.id).recordCount as number;
      // The insert a killed process had sent, landing after the repair: the records say 4, the count 2.
      const now = new Date();
      await s.app.ctx.conn.collection('records').insertMany([3, 4].map((n) => ({ dataSourceId: id, recordId: String(n), data: { id: n }, keyOrder: ['id'], revision: 1, createdAt: now, lastUpdated: now, recordedAt: now })));
      const sweep = startRetentionSweep(s.app.ctx, { recount: [ds.id] });
      try {
        await sweep.tick();
        expect(await count()).toBe(4);
        expect(captured.lines).toContain(`warn data source ${ds.id}: its record count said 2, its records are 4; stored 4`);
        // While a change is open, its increment is still to come: the count is left alone, and checked on a later tick.
        await s.app.ctx.conn.collection('records').insertOne({ dataSourceId: id, recordId: '5', data: { id: 5 }, keyOrder: ['id'], revision: 2, createdAt: now, lastUpdated: now, recordedAt: now });
        const change = (await openChange(s.app.ctx.models, id))!;
        await sweep.tick();
        expect(await count()).toBe(4);
        await closeChange(s.app.ctx.models, id, change, { added: 1 });
        expect(await count()).toBe(5);
        await sweep.tick();
        expect(await count()).toBe(5);
      } finally {
        await sweep.close();
      }
    } finally {
      await s.close();
    }
  });
});
