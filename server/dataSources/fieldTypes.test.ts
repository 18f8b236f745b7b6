import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { eventually } from '../test/eventually';
import { startTestServer, type TestServer } from '../test/harness';
import { startFieldTypes } from './fieldTypes';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

async function newSource(name = 'Movies') {
  const res = await s.http('POST', '/api/admin/data-sources', { body: { name } });
  expect(res.status).toBe(201);
  return res.body as DataSourceDto;
}

const ingest = async (sourceId: string, records: Record<string, unknown>[]) => {
  const res = await s.http('POST', '/api/data/ingest', { body: { sourceId, records } });
  expect(res.status).toBe(200);
};

/** The source as the console lists it, once `ready` says so (the types follow the records within a batch window). */
async function sourceWhen(id: string, ready: (ds: DataSourceDto) => boolean): Promise<DataSourceDto> {
  return eventually(async () => {
    const ds = ((await s.http('GET', '/api/data/sources')).body as DataSourceDto[]).find((d) => d.id === id)!;
    if (!ready(ds)) throw new Error(`the source never got there: ${JSON.stringify(ds.fieldTypes)}`);
    return ds;
  }, { timeout: 10_000, interval: 50 });
}

describe('the type model on the server', () => {
  it('infers types from the records as they arrive, across batches, nested leaf paths included', async () => {
    const ds = await newSource();
    await ingest(ds.sourceId, [{ id: 1, Title: 'Jaws', Genre: null, Released: null, Gross: null, issue: { id: 10, state: 'open' } }]);
    await sourceWhen(ds.id, (d) => d.fieldTypes.Title === 'text');
    await ingest(ds.sourceId, [
      { id: 2, Title: 1941, Genre: 'Comedy', Released: 'Jun 12 1998', Gross: '23,000'.replace(',', ''), issue: { id: 11, state: 'closed' } },
      { id: 3, Title: 'Alien', Genre: 'Horror', Released: '12 Jun 1998', Gross: 104_931_801, issue: { id: 12, state: 'open' } },
      { id: 4, Title: 'Heat', Genre: 'Comedy', Released: 'June 12, 1998', Gross: '', issue: { id: 13, state: 'open' } },
      { id: 5, Title: 'Ran', Genre: 'Horror', Released: '2024-03-01 10:00', Gross: 5, issue: { id: 14, state: 'closed' } },
    ]);
    const typed = await sourceWhen(ds.id, (d) => d.fieldTypes.Released === 'datetime');
    expect(typed.fieldTypes).toEqual({
      id: 'number', Title: 'text', Genre: 'category', Released: 'datetime', Gross: 'number', 'issue.id': 'number', 'issue.state': 'category',
    });
    expect(typed.fieldTypesSet).toEqual({});
  });

  it('a type set by a person wins and survives further ingests; null returns the field to the inferred type', async () => {
    const ds = await newSource();
    await ingest(ds.sourceId, [{ id: 1, code: 'A1', n: 1 }, { id: 2, code: 'B2', n: 2 }]);
    await sourceWhen(ds.id, (d) => d.fieldTypes.code === 'text');
    const set = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { fieldTypes: { code: 'category', 'meta.at': 'datetime' }, dateOrder: 'dmy' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ fieldTypes: { code: 'category', 'meta.at': 'datetime' }, fieldTypesSet: { code: 'category', 'meta.at': 'datetime' }, dateOrder: 'dmy' });
    // A later ingest brings a new field: the inferred types move on, the set ones stay.
    await ingest(ds.sourceId, [{ id: 3, code: 'C3', n: 3, extra: true, meta: { at: '01/02/2024' } }]);
    const after = await sourceWhen(ds.id, (d) => d.fieldTypes.extra === 'boolean');
    expect(after.fieldTypes).toMatchObject({ code: 'category', 'meta.at': 'datetime', n: 'number', extra: 'boolean' });
    expect(after.fieldTypesSet).toEqual({ code: 'category', 'meta.at': 'datetime' });
    const unset = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { fieldTypes: { code: null } } });
    expect(unset.body.fieldTypes.code).toBe('text');
    expect(unset.body.fieldTypesSet).toEqual({ 'meta.at': 'datetime' });
    const bad = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { fieldTypes: { code: 'money' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
  });

  it('backfills a source that holds records but no types from a sample of its stored records', async () => {
    const ds = await newSource();
    await ingest(ds.sourceId, [{ id: 1, at: '2024-03-01T10:00:00Z', n: 5 }, { id: 2, at: '2024-03-02T10:00:00Z', n: '6' }]);
    await sourceWhen(ds.id, (d) => d.fieldTypes.at === 'datetime');
    // As if stored before the type model existed: no types, and no event will come.
    await s.app.ctx.models.DataSource.updateOne({ _id: ds.id }, { $set: { fieldTypes: {} } });
    await sourceWhen(ds.id, (d) => Object.keys(d.fieldTypes).length === 0);
    const service = startFieldTypes(s.app.ctx);
    try {
      const filled = await sourceWhen(ds.id, (d) => Object.keys(d.fieldTypes).length > 0);
      expect(filled.fieldTypes).toEqual({ id: 'number', at: 'datetime', n: 'number' });
    } finally {
      await service.close();
    }
  });

  it('a CSV row titled "1941" shows as written; a CSV of weather measures (all text) is typed number', async () => {
    const ds = await newSource('Films and weather');
    const csv = (text: string) => s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { raw: text, headers: { 'content-type': 'text/csv' } });
    expect((await csv('Title,Distributor\n1941,Universal\n')).status).toBe(200);
    const one = await sourceWhen(ds.id, (d) => d.fieldTypes.Distributor === 'text');
    expect(one.fieldTypes.Title).toBe('text');
    // The first 40 days of seattle-weather.csv (vega-datasets).
    const weather = fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv'), 'utf8').split('\n').slice(0, 41).join('\n');
    expect((await csv(weather)).status).toBe(200);
    const typed = await sourceWhen(ds.id, (d) => d.fieldTypes.precipitation !== undefined);
    expect(typed.fieldTypes).toMatchObject({ Title: 'text', date: 'datetime', precipitation: 'number', temp_max: 'number', temp_min: 'number', wind: 'number', weather: 'category' });
  });

  it('gives the public view the types and the day/month order', async () => {
    const ds = await newSource();
    await ingest(ds.sourceId, [{ id: 1, when: 'Jun 12 1998' }, { id: 2, when: '12 Jun 1998' }]);
    await sourceWhen(ds.id, (d) => d.fieldTypes.when === 'datetime');
    const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Films', dataSourceId: ds.id, isPublished: true } })).body;
    const view = await s.http('GET', `/api/dashboards/${dash.id}`, { token: null });
    expect(view.status).toBe(200);
    expect(view.body.dataSource).toMatchObject({ fieldTypes: { id: 'number', when: 'datetime' }, dateOrder: 'mdy' });
    expect(view.text).not.toContain(ds.sourceId);
  });
});
