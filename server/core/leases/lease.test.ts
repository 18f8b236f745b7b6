import mongoose, { Schema } from 'mongoose';
import { beforeEach, describe, expect, it } from 'vitest';
import { outlivingDatabase } from '../../test/database';
import { eventually } from '../../test/eventually';
import { createLogger } from '../log';
import { keepLease, type Lease, releaseLeases, renewLeases, takeLease } from './lease';
import { startScheduler } from './schedule';

/**
 * The one lease and the one scheduler every room uses (alerts, the outbox, syncs, reports), on the
 * real offline engine: two holders racing as two processes would.
 */
const db = outlivingDatabase();
const quiet = createLogger('silent');

interface JobDoc {
  _id: mongoose.Types.ObjectId;
  name: string;
  lease: { owner: string | null; until: Date | null };
  nextRunAt: Date | null;
  every: number;
  runs: number;
}

const jobSchema = new Schema(
  {
    name: String,
    lease: { owner: { type: String, default: null }, until: { type: Date, default: null } },
    nextRunAt: { type: Date, default: null },
    every: { type: Number, default: 60_000 },
    runs: { type: Number, default: 0 },
  },
  { versionKey: false },
);
const Job = () => (db.conn.models.LeaseTestJob as mongoose.Model<JobDoc>) ?? db.conn.model<JobDoc>('LeaseTestJob', jobSchema);
const leaseOf = (owner: string, ms = 60_000): Lease => ({ model: Job(), fields: { owner: 'lease.owner', until: 'lease.until' }, ms, owner });

beforeEach(async () => {
  await Job().deleteMany({});
});

describe('the lease', () => {
  it('goes to exactly one of two processes taking it at once, and to the other once handed back', async () => {
    const job = await Job().create({ name: 'a' });
    const [a, b] = await Promise.all([takeLease<JobDoc>(leaseOf('A'), { _id: job._id }), takeLease<JobDoc>(leaseOf('B'), { _id: job._id })]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = a ? 'A' : 'B';
    const loser = a ? 'B' : 'A';
    expect(await renewLeases(leaseOf(loser), { _id: job._id })).toBe(0);
    expect(await renewLeases(leaseOf(winner), { _id: job._id })).toBe(1);
    expect(await releaseLeases(leaseOf(loser), { _id: job._id })).toBe(0);
    expect(await releaseLeases(leaseOf(winner), { _id: job._id }, { runs: 1 })).toBe(1);
    const taken = await takeLease<JobDoc>(leaseOf(loser), { _id: job._id });
    expect(taken?.lease.owner).toBe(loser);
    expect(taken?.runs).toBe(1);
  });

  it('is taken over once it runs out, and its first holder learns it lost it', async () => {
    const job = await Job().create({ name: 'b' });
    expect(await takeLease(leaseOf('A', 300), { _id: job._id })).not.toBeNull();
    await eventually(async () => expect(await takeLease(leaseOf('B'), { _id: job._id })).not.toBeNull(), { timeout: 5_000 });
    let lost = 0;
    const stop = keepLease(leaseOf('A', 300), { _id: job._id }, () => lost++);
    try {
      await eventually(() => expect(lost).toBe(1), { timeout: 5_000 });
    } finally {
      stop();
    }
    expect((await Job().findById(job._id).lean<JobDoc>())?.lease.owner).toBe('B');
  });
});

describe('the scheduler', () => {
  it('runs a due document once across two processes, and a run missed for many slots only once', async () => {
    const long = new Date(Date.now() - 10 * 60_000); // ten one-minute slots missed
    const job = await Job().create({ name: 'c', nextRunAt: long, every: 60_000 });
    const ran: string[] = [];
    const schedule = (who: string) =>
      startScheduler<JobDoc>(quiet, {
        name: `test ${who}`,
        model: Job(),
        dueField: 'nextRunAt',
        scheduled: {},
        next: (doc, from) => new Date(from.getTime() + doc.every),
        tickMs: 3_600_000,
        run: async (doc) => {
          ran.push(who);
          await Job().updateOne({ _id: doc._id }, { $inc: { runs: 1 } });
        },
      });
    const a = schedule('A');
    const b = schedule('B');
    try {
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      await eventually(async () => expect((await Job().findById(job._id).lean<JobDoc>())?.runs).toBe(1));
      const after = await Job().findById(job._id).lean<JobDoc>();
      expect(after!.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
      await Promise.all([a.tick(), b.tick()]);
      expect(ran).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('counts the next due time from the end of a run when asked, and leaves a schedule changed during the run alone', async () => {
    const job = await Job().create({ name: 'd', nextRunAt: new Date(Date.now() - 1_000), every: 3_600_000 });
    const other = await Job().create({ name: 'e', nextRunAt: new Date(Date.now() - 1_000), every: 3_600_000 });
    const changedTo = new Date(Date.now() + 5 * 3_600_000);
    const ended = new Map<string, number>();
    const s = startScheduler<JobDoc>(quiet, {
      name: 'test end',
      model: Job(),
      dueField: 'nextRunAt',
      scheduled: {},
      next: (doc, from) => new Date(from.getTime() + doc.every),
      fromRunEnd: true,
      tickMs: 3_600_000,
      run: async (doc) => {
        if (doc.name === 'e') await Job().updateOne({ _id: doc._id }, { $set: { nextRunAt: changedTo } });
        ended.set(doc.name, Date.now());
      },
    });
    try {
      await s.tick();
      await eventually(async () => {
        const d = await Job().findById(job._id).lean<JobDoc>();
        expect(d!.nextRunAt!.getTime()).toBeGreaterThanOrEqual(ended.get('d')! + 3_600_000);
      });
      expect((await Job().findById(other._id).lean<JobDoc>())!.nextRunAt!.getTime()).toBe(changedTo.getTime());
    } finally {
      await s.close();
    }
  });
});
