import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntryDto } from '@common/schemas/activity';
import { ADMIN_TOKEN, capturedLog, startTestServer, type TestServer } from '../test/harness';
import { activityHandle } from '../core/activity';

let s: TestServer;
const { log, lines } = capturedLog();
beforeAll(async () => {
  // A tiny queue: sustained ingest must fit in it (summaries), and what does not fit is dropped and said.
  s = await startTestServer({ ACTIVITY_MAX_QUEUED: '5' }, log);
});
afterAll(() => s.close());

describe('the activity log under sustained ingest', () => {
  it('summarises ingest per source, credential and minute; its queue stays bounded and nothing is dropped', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Metrics', appendOnly: true, retention: { maxRecords: 20 } } })).body;
    const activity = activityHandle.of(s.app.ctx);
    let most = 0;
    const send = (n: number) =>
      s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: n % 3 ? ds.ingestKey : ADMIN_TOKEN, body: n % 10 === 9 ? [{ n }, 'not a record'] : { n } });
    // 150 requests, 10 at a time, counting what waits in memory all along.
    for (let wave = 0; wave < 15; wave++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(wave * 10 + i)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      most = Math.max(most, activity.queued());
    }
    expect(most).toBeLessThanOrEqual(4); // a summary per credential (two more if a minute turned)
    expect(activity.dropped()).toBe(0);
    const entries: ActivityEntryDto[] = (await s.http('GET', `/api/admin/activity?category=ingest&objectId=${ds.id}`)).body;
    const sum = (credential: string, k: string) => entries.filter((e) => e.credential === credential).reduce((n, e) => n + Number(e.details[k]), 0);
    expect(entries.length).toBeLessThanOrEqual(4);
    expect([sum('ingestKey', 'requests'), sum('admin', 'requests')]).toEqual([100, 50]);
    expect(sum('ingestKey', 'records') + sum('admin', 'records')).toBe(165);
    expect(sum('ingestKey', 'rejected') + sum('admin', 'rejected')).toBe(15);
    // Who sent what, in words.
    const byKey = entries.find((e) => e.credential === 'ingestKey')!;
    expect(byKey).toMatchObject({ kind: 'ingest', objectName: 'Metrics', keyHint: ds.ingestKeyHint, actor: `ingest key ${ds.ingestKeyHint}` });
    expect(byKey.summary).toMatch(/^Ingest in one minute: \d+ requests, \d+ records \(\d+ inserted, 0 updated, \d+ rejected\)$/);
    expect(new Date(String(byKey.details.until)).getTime() - new Date(byKey.at).getTime()).toBe(60_000);
  }, 60_000);

  it('drops what does not fit in its queue, counts it and says so once', async () => {
    const activity = activityHandle.of(s.app.ctx);
    const before = activity.dropped();
    for (let i = 0; i < 20; i++) s.app.ctx.events.emit('activity.happened', { kind: 'test.flood', category: 'admin', summary: `flood ${i}` });
    expect(activity.queued()).toBeLessThanOrEqual(5);
    expect(activity.dropped() - before).toBeGreaterThanOrEqual(15);
    expect(lines.filter((l) => l.startsWith('warn activity log:'))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('warn activity log:'))).toMatch(/entries dropped .*ACTIVITY_MAX_QUEUED/);
    await activity.flush();
    expect(activity.queued()).toBe(0);
  });
});
