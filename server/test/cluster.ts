import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../core/config';
import { startDatabase, type DatabaseHandle } from '../core/db/startDatabase';
import { createLogger } from '../core/log';
import { ADMIN_TOKEN, TEST_ENGINE, startTestServer, type TestServer } from './harness';
import { startRedis, startServerProcess } from './processes';

export interface TestCluster {
  /** The redis-server; a test that restarts it puts the new one here so `stop()` ends it. */
  redis: Awaited<ReturnType<typeof startRedis>>;
  db: DatabaseHandle;
  /** Process A runs in the test's own process (its app is reachable); B is a child process. */
  a: TestServer;
  b: Awaited<ReturnType<typeof startServerProcess>>;
  stop(): Promise<void>;
}

/** Extra environment of process A and of process B (e.g. a test's shorter intervals). */
export interface ClusterEnv {
  a?: Record<string, string>;
  b?: Record<string, string>;
}

/**
 * Two server processes sharing one database and a real redis-server (the Redis adapter, view-cache
 * relay and rate limits in play), filled into `cluster`; `stop()` ends what was started, in reverse order.
 */
export async function startCluster(cluster = {} as TestCluster, env: ClusterEnv = {}): Promise<TestCluster> {
  const stops: (() => Promise<void>)[] = [];
  cluster.stop = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
  };
  try {
    cluster.redis = await startRedis();
    stops.push(() => cluster.redis.stop());
    cluster.db = await startDatabase(loadConfig({ SEED_DEMO: 'false', ...TEST_ENGINE }), createLogger('silent'));
    stops.push(() => cluster.db.stop());
    cluster.a = await startTestServer({ MONGODB_URI: cluster.db.uri, REDIS_URL: cluster.redis.url, ...env.a });
    stops.push(() => cluster.a.close());
    cluster.b = await startServerProcess({ MONGODB_URI: cluster.db.uri, REDIS_URL: cluster.redis.url, ADMIN_TOKEN, SEED_DEMO: 'false', ...env.b });
    stops.push(() => cluster.b.stop());
    return cluster;
  } catch (e) {
    await cluster.stop();
    throw e;
  }
}

/** A cluster for a test file: started before its tests, stopped after them (read its fields inside the tests). */
export function useCluster(env: ClusterEnv = {}): TestCluster {
  const cluster = {} as TestCluster;
  beforeAll(() => startCluster(cluster, env));
  afterAll(() => cluster.stop?.());
  return cluster;
}
