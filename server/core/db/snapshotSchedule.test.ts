import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SnapshotSchedule, SNAPSHOT_WITHIN_MS } from './snapshotSchedule';

/** The schedule alone, on a fake clock: when snapshots begin relative to the changes. */
describe('when the offline engine writes a snapshot', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  /** A save that takes `ms` on the fake clock and records when it began. */
  const saves = (ms = 300) => {
    const began: number[] = [];
    let fail = false;
    const save = () => {
      began.push(Date.now());
      return new Promise<void>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('disk full')) : resolve()), ms));
    };
    return { began, save, failNext: (v: boolean) => (fail = v) };
  };

  it('writes nothing while nothing changes', async () => {
    const s = saves();
    const schedule = new SnapshotSchedule(s.save, () => {});
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.began).toEqual([]);
    await schedule.close();
    expect(s.began).toEqual([]);
  });

  it('has every change on disk within 5 s, even while changes never stop', async () => {
    const s = saves(300);
    const schedule = new SnapshotSchedule(s.save, () => {});
    const changes: number[] = [];
    const start = Date.now();
    // A change every 250 ms for 40 s.
    while (Date.now() - start < 40_000) {
      schedule.changed();
      changes.push(Date.now());
      await vi.advanceTimersByTimeAsync(250);
    }
    // Each change is held by the first snapshot that began after it, which ends 300 ms later.
    for (const at of changes) {
      const held = s.began.find((b) => b > at);
      if (held === undefined) continue; // the last few: still within their window when the loop ends
      expect(held + 300 - at).toBeLessThanOrEqual(SNAPSHOT_WITHIN_MS);
    }
    expect(s.began.length).toBeGreaterThanOrEqual(8);
    // Never two at once.
    for (let i = 1; i < s.began.length; i++) expect(s.began[i] - s.began[i - 1]).toBeGreaterThanOrEqual(300);
    const closed = schedule.close();
    await vi.advanceTimersByTimeAsync(1_000);
    await closed;
  });

  it('says since when changes are not on disk, and nothing once they are', async () => {
    const s = saves(300);
    const schedule = new SnapshotSchedule(s.save, () => {});
    expect(schedule.status().unsavedSince).toBeNull();
    schedule.changed();
    const at = Date.now();
    expect(schedule.status().unsavedSince?.getTime()).toBe(at);
    await vi.advanceTimersByTimeAsync(SNAPSHOT_WITHIN_MS - 1_000 + 100);
    // Being written: still not on disk.
    expect(schedule.status().unsavedSince?.getTime()).toBe(at);
    await vi.advanceTimersByTimeAsync(300);
    expect(schedule.status()).toMatchObject({ unsavedSince: null, lastError: null });
    expect(schedule.status().lastSavedAt).not.toBeNull();
  });

  it('retries a failed snapshot, says why meanwhile, and tells the log once per failing streak', async () => {
    const s = saves(100);
    const errors: boolean[] = [];
    const schedule = new SnapshotSchedule(s.save, (_e, first) => errors.push(first));
    s.failNext(true);
    schedule.changed();
    await vi.advanceTimersByTimeAsync(3 * SNAPSHOT_WITHIN_MS + 1_000);
    expect(s.began.length).toBeGreaterThanOrEqual(3);
    expect(errors[0]).toBe(true);
    expect(errors.slice(1).every((first) => !first)).toBe(true);
    expect(schedule.status().lastError).toBe('disk full');
    expect(schedule.status().unsavedSince).not.toBeNull();
    s.failNext(false);
    await vi.advanceTimersByTimeAsync(SNAPSHOT_WITHIN_MS + 200);
    expect(schedule.status()).toMatchObject({ unsavedSince: null, lastError: null });
  });

  it('writes the last snapshot on close when something changed, at once', async () => {
    const s = saves(50);
    const schedule = new SnapshotSchedule(s.save, () => {});
    schedule.changed();
    const closed = schedule.close();
    await vi.advanceTimersByTimeAsync(60);
    await closed;
    expect(s.began).toHaveLength(1);
    expect(schedule.status().unsavedSince).toBeNull();
  });
});
