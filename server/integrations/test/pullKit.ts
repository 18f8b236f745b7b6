import { expect } from 'vitest';
import type { IntegrationDto, IntegrationRunDto, SyncStatusDto } from '@common/schemas/integration';
import { eventually } from '../../test/eventually';
import type { TestServer } from '../../test/harness';

/** Helpers for tests of pull integrations (an API, a database) through the real routes. */

export async function createPull(s: TestServer, type: string, config: Record<string, unknown>, name = 'Items'): Promise<IntegrationDto> {
  const res = await s.http<IntegrationDto>('POST', '/api/integrations', { body: { name, type, config } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Starts a sync and waits until it has ended; answers its run (newest first in the history). */
export async function syncAndWait(s: TestServer, id: string, body: { full?: boolean } = {}): Promise<IntegrationRunDto> {
  const start = await s.http('POST', `/api/integrations/${id}/sync`, { body });
  expect(start.status, start.text).toBe(202);
  await waitForIdle(s, id);
  return (await runs(s, id))[0];
}

/** Polls sync-status until no sync runs (what the console does as a fallback). */
export async function waitForIdle(s: TestServer, id: string, timeout = 20_000): Promise<SyncStatusDto> {
  return eventually(async () => {
    const res = await s.http<SyncStatusDto>('GET', `/api/integrations/${id}/sync-status`);
    expect(res.status).toBe(200);
    if (res.body.isRunning) throw new Error(`sync still running: ${JSON.stringify(res.body)}`);
    return res.body;
  }, { timeout, interval: 50 });
}

export async function runs(s: TestServer, id: string): Promise<IntegrationRunDto[]> {
  const res = await s.http<IntegrationRunDto[]>('GET', `/api/integrations/${id}/runs`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The records of an integration's data source, by the value of a field. */
export async function pulledRecords(s: TestServer, sourceId: string): Promise<Record<string, unknown>[]> {
  const res = await s.http<{ records: { data: Record<string, unknown> }[] }>('GET', `/api/data/raw?dataSourceId=${sourceId}&limit=1000`);
  expect(res.status, res.text).toBe(200);
  return res.body.records.map((r) => r.data);
}
