import os from 'node:os';
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

  it('repairs only the changes of runs that are gone: a live process\'s change under way is left to it (a rolling restart)', async () => {
    const live = await startTestServer({ MONGODB_URI: db.uri });
    const { models } = live.app.ctx;
    const host = os.hostname();
    const now = new Date();
    const minute = 60_000;
    // Each source: 3 records, a count that says 1, and one open change of a run that is…
    const cases = {
      liveHere: null, // this live server's own change under way: left alone
      liveElsewhere: { id: 'run-elsewhere', host: 'other-host', pid: 4242, since: 0, beatAt: now },
      gone: { id: 'run-gone', host: 'other-host', pid: 4243, since: 0, beatAt: null }, // no heartbeat at all
      stale: { id: 'run-stale', host: 'other-host', pid: 4244, since: 0, beatAt: new Date(now.getTime() - 2 * minute) },
      deadPid: { id: 'run-dead-pid', host, pid: 2 ** 22 + 1, since: 0, beatAt: now }, // above Linux's pid_max: not running
      samePidBefore: { id: 'run-before', host, pid: process.pid, since: Date.now() - process.uptime() * 1000 - 10 * minute, beatAt: now },
      ownerless: 'date', // an entry written before entries named their run
    } as const;
    const ids: Record<string, string> = {};
    let liveChange: Awaited<ReturnType<typeof openChange>> = null;
    for (const [name, run] of Object.entries(cases)) {
      const ds = (await live.http('POST', '/api/admin/data-sources', { body: { name } })).body;
      ids[name] = ds.id;
      expect((await live.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }, { id: 3 }] } })).status).toBe(200);
      await models.DataSource.updateOne({ _id: ds.id }, { $set: { recordCount: 1 } });
      if (run === null) liveChange = await openChange(models, new mongoose.Types.ObjectId(ds.id as string));
      else if (run === 'date') await models.DataSource.updateOne({ _id: ds.id }, { $set: { 'ingestJournal.0000000000000001': now } });
      else {
        const { beatAt, ...by } = run;
        if (beatAt) await models.ServerProcess.updateOne({ _id: by.id }, { $set: { host: by.host, pid: by.pid, beatAt } }, { upsert: true });
        await models.DataSource.updateOne({ _id: ds.id }, { $set: { [`ingestJournal.${name}0000000000`]: { at: now, by } } });
      }
    }

    const captured = capturedLog();
    const starting = await startTestServer({ MONGODB_URI: db.uri }, captured.log);
    try {
      const counts = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, (await models.DataSource.findById(id).lean())!.recordCount])));
      expect(counts).toEqual({ liveHere: 1, liveElsewhere: 1, gone: 3, stale: 3, deadPid: 3, samePidBefore: 3, ownerless: 3 });
      expect(captured.lines.find((l) => l.includes('repaired'))).toContain('repaired 5 data source(s)');
      // The live change closes as it would have: its own increment, its entry gone.
      await closeChange(models, new mongoose.Types.ObjectId(ids.liveHere), liveChange!, { added: 2 });
      const closed = (await models.DataSource.findById(ids.liveHere).lean())!;
      expect([closed.recordCount, closed.ingestJournal]).toEqual([3, {}]);
      // A run's heartbeat is there while it runs, and gone after a clean stop.
      const beats = () => models.ServerProcess.countDocuments({ _id: starting.app.ctx.models.owner.id });
      expect(await beats()).toBe(1);
      await starting.close();
      expect(await beats()).toBe(0);
    } finally {
      await starting.close();
      await live.close();
    }
  });
});
