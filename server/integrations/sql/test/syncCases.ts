import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationDto, IntegrationRunDto, SyncStatusDto, TestConnectionDto } from '@common/schemas/integration';
import type { SyncCompletedEvent, SyncFailedEvent, SyncProgressEvent } from '@common/realtime';
import { eventually } from '../../../test/eventually';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../../test/harness';
import { join, openSocket, type TestSocket } from '../../../test/sockets';
import type { SqlServer } from './sqlServers';
import { SECRET_MASK } from '../../provider';

/**
 * A database integration end to end, against the real server and a real database (the provider's
 * test file starts both once): create, test connection, first and incremental syncs with live
 * progress, a connection killed mid-run and a statement timeout then a resume without duplicates,
 * secrets never answered, auto-sync.
 */
export interface SyncUnderTest {
  type: 'postgres' | 'mysql';
  start(): Promise<SqlServer>;
  /** items(id, updated_at, name), a control table with a pause in seconds, and a view items_feed that sleeps that pause once per statement. */
  setup: string[];
}

const PASSWORD = 'Sync-Reader-Pw-77';
const BATCH = 3;
const at = (minute: number) => `2024-05-01 10:${String(minute).padStart(2, '0')}:00`;

export function syncCases(t: SyncUnderTest) {
  let db: SqlServer;
  let s: TestServer;
  let socket: TestSocket;
  const events: { name: string; e: SyncProgressEvent | SyncCompletedEvent | SyncFailedEvent }[] = [];
  const connectionString = (pw = PASSWORD) => db.url('syncer', pw);
  const config = (over: Record<string, unknown> = {}) => ({ connectionString: connectionString(), query: 'SELECT * FROM items_feed', primaryKey: 'id', incremental: { column: 'updated_at' }, ...over });
  const insert = (from: number, to: number, minute: number) =>
    db.sql(`INSERT INTO items (id, updated_at, name) VALUES ${Array.from({ length: to - from + 1 }, (_, i) => `(${from + i}, '${at(minute)}', 'item ${from + i}')`).join(', ')}`);
  const pause = (seconds: number) => db.sql(`UPDATE control SET pause = ${seconds}`);

  /** Every answer of these tests, to show no password ever leaves. */
  const answers: string[] = [];
  const http = async <T>(method: string, path: string, body?: unknown) => {
    const res = await s.http<T>(method, path, { body });
    answers.push(res.text);
    return res;
  };
  const create = async (name: string, over: Record<string, unknown> = {}) => {
    const res = await http<IntegrationDto>('POST', '/api/integrations', { name, type: t.type, config: config(over) });
    expect(res.status, res.text).toBe(201);
    expect(await join(socket, 'integration:join', res.body.id)).toEqual({ ok: true });
    return res.body;
  };
  const waitForRun = async (id: string, timeout = 20_000) =>
    eventually(async () => {
      const status = (await http<SyncStatusDto>('GET', `/api/integrations/${id}/sync-status`)).body;
      if (status.isRunning) throw new Error('still running');
      const runs = (await http<IntegrationRunDto[]>('GET', `/api/integrations/${id}/runs`)).body;
      expect(runs[0]?.status).not.toBe('running');
      return runs;
    }, { timeout, interval: 100 });
  const sync = async (id: string, body: Record<string, unknown> = {}) => {
    const res = await http('POST', `/api/integrations/${id}/sync`, body);
    expect(res.status, res.text).toBe(202);
    return waitForRun(id);
  };
  const records = async (dto: IntegrationDto) => {
    const sourceId = (await http<IntegrationDto>('GET', `/api/integrations/${dto.id}`)).body.sourceId;
    const raw = (await http<{ records: { recordId: string; data: Record<string, unknown> }[]; total: number }>('GET', `/api/data/raw?dataSourceId=${sourceId}&limit=1000`)).body;
    return raw.records.map((r) => r.data).sort((a, b) => Number(a.id) - Number(b.id));
  };

  beforeAll(async () => {
    db = await t.start();
    for (const statement of t.setup) await db.sql(statement);
    await db.addReader('syncer', PASSWORD);
    s = await startTestServer({
      OUTBOUND_ALLOWED_HOSTS: db.hostPort,
      INTEGRATION_BATCH_RECORDS: String(BATCH),
      INTEGRATION_REQUEST_TIMEOUT_MS: '1500',
      ZENDESK_SCHEDULER_TICK_MS: '100',
    });
    socket = await openSocket(s.url, ADMIN_TOKEN);
    socket.on('sync:progress', (e) => events.push({ name: 'sync:progress', e }));
    socket.on('sync:completed', (e) => events.push({ name: 'sync:completed', e }));
    socket.on('sync:failed', (e) => events.push({ name: 'sync:failed', e }));
  });
  afterAll(async () => {
    socket?.close();
    await s?.close();
    await db?.stop();
  });

  describe('a sync', () => {
    let dto: IntegrationDto;

    it('is created active with its password masked; Test connection shows sample rows and the fields', async () => {
      await insert(1, 7, 1);
      dto = await create('Shop orders');
      expect(dto).toMatchObject({ type: t.type, status: 'active', hasCredentials: true, connection: { connectionString: connectionString().replace(PASSWORD, SECRET_MASK), primaryKey: 'id' } });
      expect(dto.config.domain).toBe(`${db.hostPort}/${new URL(db.url('x', 'y')).pathname.slice(1)}`);
      const test = await http<TestConnectionDto>('POST', `/api/integrations/${dto.id}/test`);
      expect(test.status, test.text).toBe(200);
      expect(test.body.fields).toEqual(['id', 'updated_at', 'name']);
      expect(test.body.sample).toHaveLength(5);
      expect(test.body.sample[0]).toEqual({ id: 1, updated_at: '2024-05-01T10:01:00.000Z', name: 'item 1' });
    });

    it('reads every row in batches into the INT_ source, with live progress in the integration room', async () => {
      events.length = 0;
      const [run] = await sync(dto.id);
      expect(run).toMatchObject({ status: 'succeeded', mode: 'full', trigger: 'manual', records: 7, pages: 3, error: null });
      expect((await records(dto)).map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const after = (await http<IntegrationDto>('GET', `/api/integrations/${dto.id}`)).body;
      expect(after.sourceId).toBe(`INT_${dto.id}`);
      // Progress for each stored batch, the rows counted at the start giving the share (99 % until the run is over).
      await eventually(() => expect(events.some((x) => x.name === 'sync:completed')).toBe(true));
      const progress = events.filter((x) => x.name === 'sync:progress').map((x) => x.e);
      const batches = progress.filter((e) => /^Read rows/.test(e.progress.message));
      expect(batches.map((e) => [e.progress.message.split(':')[0], e.pagesProcessed])).toEqual([['Read rows 1–3', 1], ['Read rows 4–6', 2], ['Read rows 7–7', 3]]);
      expect(batches.map((e) => Math.round(e.progress.progress))).toEqual([43, 86, 99]);
      expect(progress.some((e) => e.progress.message === `Connecting to ${db.hostPort}`)).toBe(true);
      expect(events.find((x) => x.name === 'sync:completed')!.e).toMatchObject({ integrationId: dto.id, isRunning: false, recordsProcessed: 7, pagesProcessed: 3 });
    });

    it('then reads only newer rows: a later key at the last time, rows of a new time, a row whose time moved', async () => {
      await insert(8, 8, 1);
      await insert(9, 10, 5);
      await db.sql(`UPDATE items SET name = 'item 2, renamed', updated_at = '${at(6)}' WHERE id = 2`);
      const [run] = await sync(dto.id);
      expect(run).toMatchObject({ status: 'succeeded', mode: 'incremental', records: 4, pages: 2 });
      const rows = await records(dto);
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(rows[1]).toEqual({ id: 2, updated_at: '2024-05-01T10:06:00.000Z', name: 'item 2, renamed' });
      // {full: true} reads everything again, upserted by key: no row twice.
      expect((await sync(dto.id, { full: true }))[0]).toMatchObject({ status: 'succeeded', mode: 'full', records: 10 });
      expect(await records(dto)).toHaveLength(10);
    });
  });

  describe('failure mid-run', () => {
    it('a connection killed on a later batch fails the run naming the batch; what was stored stays and the next sync resumes without a row twice', async () => {
      const dto = await create('Killed mid-run');
      await pause(0.4);
      events.length = 0;
      // Once the first batch is stored, the database ends the reader's connection (a failover, an administrator).
      const killed = new Promise<void>((resolve) => {
        const on = (e: SyncProgressEvent) => {
          if (e.integrationId !== dto.id || e.pagesProcessed < 1) return;
          socket.off('sync:progress', on);
          void db.disconnect('syncer').then(() => resolve());
        };
        socket.on('sync:progress', on);
      });
      expect((await http('POST', `/api/integrations/${dto.id}/sync`, {})).status).toBe(202);
      await killed;
      const [failed] = await waitForRun(dto.id);
      await pause(0);
      expect(failed).toMatchObject({ status: 'failed' });
      expect(failed.error).toMatch(new RegExp(`^batch ${failed.pages + 1}: (the connection to ${db.hostPort.replace(/\./g, '\\.')} was lost|the database ended the connection)`));
      expect(failed.pages).toBeGreaterThanOrEqual(1);
      expect(failed.records).toBe(failed.pages * BATCH);
      expect(events.find((x) => x.name === 'sync:failed')?.e).toMatchObject({ integrationId: dto.id, isRunning: false });
      expect(await records(dto)).toHaveLength(failed.records);

      const [resumed] = await sync(dto.id);
      expect(resumed).toMatchObject({ status: 'succeeded', mode: 'incremental', records: 10 - failed.records });
      expect((await records(dto)).map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('a batch past the statement timeout fails the run in words; the next sync, once the query is quick again, reads it all', async () => {
      const dto = await create('Too slow');
      await pause(3);
      const [failed] = await sync(dto.id);
      await pause(0);
      expect(failed).toMatchObject({ status: 'failed', records: 0, error: 'batch 1: the query ran longer than the statement timeout (1.5 s)' });
      expect(await sync(dto.id)).toMatchObject([{ status: 'succeeded', records: 10 }, failed]);
    });
  });

  describe('secrets', () => {
    it('a wrong password fails Test connection with a 422 naming the user, never the password', async () => {
      const dto = await create('Wrong password', { connectionString: connectionString('Wrong-Pw-31337') });
      const test = await http<{ error: { message: string } }>('POST', `/api/integrations/${dto.id}/test`);
      expect(test.status).toBe(422);
      expect(test.body.error.message).toMatch(t.type === 'postgres' ? /^password authentication failed for user "syncer"$/ : /^Access denied for user 'syncer'@'[^']+' \(using password: YES\)$/);
      const [run] = await sync(dto.id);
      expect(run.error).toMatch(/^batch 1: (password authentication failed|Access denied)/);
      expect(JSON.stringify(run)).not.toContain('Wrong-Pw-31337');
    });

    it('a change that leaves the password out, or sends the mask back, keeps it; one that moves the host must type it again', async () => {
      const dto = await create('Kept password');
      const masked = (await http<IntegrationDto>('GET', `/api/integrations/${dto.id}`)).body.connection as { connectionString: string };
      const put = (body: Record<string, unknown>) => http<IntegrationDto & { error: { message: string } }>('PUT', `/api/integrations/${dto.id}/config`, body);
      expect((await put({ ...config({ query: 'SELECT * FROM items' }), connectionString: masked.connectionString })).status).toBe(200);
      expect((await put({ query: 'SELECT * FROM items', primaryKey: 'id' })).status).toBe(200);
      const noPassword = connectionString().replace(`:${PASSWORD}@`, '@');
      expect((await put({ ...config(), connectionString: noPassword })).status).toBe(200);
      expect((await http<TestConnectionDto>('POST', `/api/integrations/${dto.id}/test`)).body.ok).toBe(true);
      const moved = await put({ ...config(), connectionString: masked.connectionString.replace('127.0.0.1', 'localhost') });
      expect(moved.status).toBe(400);
      expect(moved.body.error.message).toMatch(/^config\.connectionString: enter it again: the config now sends its secrets to localhost:\d+/);
      const refused = await put({ ...config(), connectionString: db.url('syncer', PASSWORD).replace(`:${db.port}`, ':1') });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe('config.connectionString: 127.0.0.1:1 is a loopback, private, link-local or otherwise non-public address (loopback), refused unless allowed: allow 127.0.0.1:1 under Settings › Outbound hosts');
      for (const text of answers) expect(text).not.toContain(PASSWORD);
    });
  });

  describe('auto-sync', () => {
    it('runs a due sync on its own and reads what arrived since', async () => {
      const dto = await create('On a schedule');
      await sync(dto.id);
      await insert(11, 12, 30);
      await http('PUT', `/api/integrations/${dto.id}/settings`, { autoSync: true, syncInterval: 30 });
      await s.app.ctx.conn.collection('integrations').updateOne({ name: 'On a schedule' }, { $set: { nextAutoSyncAt: new Date(Date.now() - 1000) } });
      const runs = await eventually(async () => {
        const list = (await http<IntegrationRunDto[]>('GET', `/api/integrations/${dto.id}/runs`)).body;
        expect(list[0]).toMatchObject({ trigger: 'auto', status: 'succeeded' });
        return list;
      }, { timeout: 15_000, interval: 100 });
      await http('PUT', `/api/integrations/${dto.id}/settings`, { autoSync: false, syncInterval: 30 });
      expect(runs[0]).toMatchObject({ mode: 'incremental', records: 2 });
      expect(await records(dto)).toHaveLength(12);
    });
  });
}
