import crypto from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedHash } from '../core/keyedHash';
import { startRedis } from '../test/processes';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';

const sha256 = (v: string) => crypto.createHash('sha256').update(v).digest('hex');

describe('rate-limit keys in Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let s: TestServer;
  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await s?.close();
    await redis?.stop();
  });

  it('are HMACs keyed by the server secret: no credential, address or bare SHA-256 of them is stored', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Keys' } })).body;
    const ingest = (token: string) => s.http('POST', '/api/data/ingest', { token, body: { sourceId: ds.sourceId, records: [{ id: 1 }] } });
    expect((await ingest(ADMIN_TOKEN)).status).toBe(200);
    expect((await ingest(ds.ingestKey)).status).toBe(200);
    expect((await ingest('a-wrong-credential-000')).status).toBe(401);

    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = (await client.keys('livedash:rl:*')).sort();
      const hash = keyedHash(undefined, ADMIN_TOKEN);
      expect(keys).toEqual(
        [
          `livedash:rl:auth:${hash('127.0.0.1')}`,
          // The failed credential, per address: its SHA-256 with the address, keyed-hashed again.
          `livedash:rl:credential:${hash(`127.0.0.1\n${sha256('a-wrong-credential-000')}`)}`,
          `livedash:rl:ingest:${hash(ADMIN_TOKEN)}`,
          `livedash:rl:ingest:${hash(ds.ingestKey)}`,
          // Every credential writing into the source counts on the source's own limit too.
          `livedash:rl:ingestsrc:${hash(ds.id)}`,
        ].sort(),
      );
      for (const secret of [ADMIN_TOKEN, ds.ingestKey, '127.0.0.1', 'a-wrong-credential-000']) {
        expect(keys.join(' ')).not.toContain(secret);
        expect(keys.join(' ')).not.toContain(sha256(secret));
      }
    } finally {
      await client.quit();
    }
  });
});

describe('keyedHash', () => {
  it('is keyed by SERVER_SECRET when set, else by the admin token; the same key gives the same hash in every process', () => {
    const secret = 'a-server-secret-of-at-least-32-chars!';
    expect(keyedHash(secret, 'token-a')('x')).toBe(keyedHash(secret, 'token-b')('x'));
    expect(keyedHash(undefined, 'token-a')('x')).toBe(keyedHash(undefined, 'token-a')('x'));
    expect(keyedHash(undefined, 'token-a')('x')).not.toBe(keyedHash(undefined, 'token-b')('x'));
    expect(keyedHash(secret, 'token-a')('x')).not.toBe(keyedHash(undefined, 'token-a')('x'));
    expect(keyedHash(secret, 'token-a')('x')).not.toBe(keyedHash(secret, 'token-a')('y'));
  });
});
