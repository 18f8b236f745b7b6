import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRedis } from '../test/processes';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { openSocket } from '../test/sockets';
import { INTEGRATION_TYPES } from '../../common/schemas/integration';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '3', RATE_LIMIT_INGEST: '4', RATE_LIMIT_INGEST_WINDOW_SECONDS: '60', RATE_LIMIT_OAUTH: '2' });
});
afterAll(() => s.close());

describe('abuse gets a fast, explained 4xx', () => {
  it('blocks an address after too many failed admin tokens: 429 with Retry-After, RateLimit-* and the limit named', async () => {
    for (let i = 0; i < 3; i++) expect((await s.http('GET', '/api/admin/dashboards', { token: `guess-${i}` })).status).toBe(401);
    const blocked = await s.http('GET', '/api/admin/dashboards', { token: 'guess-4' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');
    expect(blocked.body.error.message).toMatch(/^Too many failed credential attempts from this address: the limit is 3 per 15 minutes\. Try again in \d+ s\.$/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.headers.get('ratelimit-limit')).toBe('3');
    expect(blocked.headers.get('ratelimit-remaining')).toBe('0');
    expect(blocked.headers.get('ratelimit-policy')).toBe('3;w=900');
    // Past the limit even the right token waits: a guesser cannot tell a hit from a miss.
    expect((await s.http('GET', '/api/admin/dashboards')).status).toBe(429);
    // The socket handshake is a sign-in too.
    await expect(openSocket(s.url, 'another-guess')).rejects.toMatchObject({ data: { code: 'rate_limited' } });
  });

  it('limits ingest requests per credential and per data source', async () => {
    const other = await startTestServer({ RATE_LIMIT_INGEST: '2', RATE_LIMIT_INGEST_SOURCE: '3' });
    try {
      const ds = (await other.http('POST', '/api/admin/data-sources', { body: { name: 'Limited' } })).body;
      const send = (token: string) => other.http('POST', '/api/data/ingest', { token, body: { sourceId: ds.sourceId, records: [{ id: 1 }] } });
      expect((await send(ds.ingestKey)).status).toBe(200);
      const second = await send(ds.ingestKey);
      expect(second.headers.get('ratelimit-remaining')).toBe('0');
      const third = await send(ds.ingestKey);
      expect(third.status).toBe(429);
      expect(third.body.error.message).toContain('Too many ingest requests with this credential: the limit is 2 per 10 seconds');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another credential has its own budget, but the source's is shared: 2 of its 3 are spent.
      expect((await send(ADMIN_TOKEN)).status).toBe(200);
      const full = await send(ADMIN_TOKEN);
      expect(full.status).toBe(429);
      expect(full.body.error.message).toMatch(/^Too many ingest requests into this data source: the limit is 3 per 10 seconds\. Try again in \d+ s\.$/);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });

  it('limits OAuth callbacks per address', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await s.http('GET', `/api/integrations/zendesk/callback?state=forged-${i}&code=x`, { token: null })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('shares the failed-credential count across processes through Redis', async () => {
    const redis = await startRedis();
    const a = await startTestServer({ REDIS_URL: redis.url, RATE_LIMIT_AUTH_FAILURES: '2' });
    const b = await startTestServer({ REDIS_URL: redis.url, RATE_LIMIT_AUTH_FAILURES: '2' });
    try {
      expect((await a.http('GET', '/api/integrations', { token: 'wrong-1' })).status).toBe(401);
      expect((await b.http('GET', '/api/integrations', { token: 'wrong-2' })).status).toBe(401);
      expect((await a.http('GET', '/api/integrations', { token: 'wrong-3' })).status).toBe(429);
      expect((await b.http('GET', '/api/integrations', { token: 'wrong-4' })).status).toBe(429);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await redis.stop();
    }
  });

  it('refuses bodies that are not what they claim, deeper than 64 levels, or in the wrong type', async () => {
    const fresh = await startTestServer();
    try {
      const notGzip = await fresh.http('POST', '/api/admin/data-sources', { raw: '{"name":"x"}', headers: { 'content-encoding': 'gzip' } });
      expect(notGzip.status).toBe(400);
      expect(notGzip.body.error.code).toBe('bad_content_encoding');
      const gz = await fetch(`${fresh.url}/api/admin/data-sources`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: zlib.gzipSync(JSON.stringify({ name: 'Gzipped' })),
      });
      expect(gz.status).toBe(201);
      const unknownEncoding = await fresh.http('POST', '/api/admin/data-sources', { raw: '{"name":"x"}', headers: { 'content-encoding': 'zstd-ish' } });
      expect(unknownEncoding.status).toBe(415);
      const deep = `{"name":"x","description":${'['.repeat(65)}${']'.repeat(65)}}`;
      const tooDeep = await fresh.http('POST', '/api/admin/data-sources', { raw: deep });
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.error).toEqual({ code: 'json_too_deep', message: 'The JSON body is nested deeper than the limit of 64 levels' });
      const hugeDeep = await fresh.http('POST', '/api/admin/dashboards', { raw: `${'['.repeat(200_000)}${']'.repeat(200_000)}` });
      expect(hugeDeep.status).toBe(400);
      const notJson = await fresh.http('POST', '/api/admin/data-sources', { raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(notJson.status).toBe(415);
      expect(notJson.body.error.code).toBe('unsupported_media_type');
      expect((await fresh.http('GET', '/api/health')).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('names the real problem in validation messages', async () => {
    const fresh = await startTestServer();
    try {
      const badType = await fresh.http('POST', '/api/integrations', { body: { name: 'X', type: 'jira' } });
      expect(badType.status).toBe(400);
      expect(badType.body.error.message).toBe(`type: Type must be one of ${INTEGRATION_TYPES.join(', ')}`);
      const noType = await fresh.http('POST', '/api/integrations', { body: { name: 'X' } });
      expect(noType.body.error.message).toBe('type: Type is required');
      const twice = await fresh.http('GET', '/api/data/raw?dataSourceId=a&dataSourceId=b');
      expect(twice.status).toBe(400);
      expect(twice.body.error).toMatchObject({ code: 'repeated_parameter', message: 'Query parameter "dataSourceId" is given 2 times; send it once' });
      await expect(openSocket(fresh.url, 'wrong-token')).rejects.toMatchObject({ data: { code: 'invalid_admin_token' } });
    } finally {
      await fresh.close();
    }
  });

  it('fails to start, with a clear error, when REDIS_URL answers nothing', async () => {
    const port = await freePort();
    await expect(startTestServer({ REDIS_URL: `redis://127.0.0.1:${port}` })).rejects.toThrow(`REDIS_URL is unreachable (127.0.0.1:${port})`);
  });
});
