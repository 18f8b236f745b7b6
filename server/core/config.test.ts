import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('has defaults for everything', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 5000, INGEST_MAX_RECORDS: 10_000, INGEST_MAX_BYTES: 16 * 1024 * 1024, DB_ENGINE: 'auto' });
    expect(c.SEED_DEMO).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a number'],
    [{ PORT: '70000' }, 'PORT must be 0–65535'],
    [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI must start with mongodb:// or mongodb+srv://'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO must be true or false'],
    [{ INGEST_MAX_RECORDS: '0' }, 'INGEST_MAX_RECORDS must be at least 1'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 12 characters'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL must be an absolute URL'],
    [{ TRUST_PROXY_HOPS: '0' }, 'TRUST_PROXY_HOPS must be at least 1'],
    [{ SERVER_SECRET: 'too-short' }, 'SERVER_SECRET must be at least 32 characters'],
    [{ TRUST_PROXY_HOPS: 'two' }, 'TRUST_PROXY_HOPS must be a number'],
  ])('names the variable of a bad value: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('parses booleans and numbers', () => {
    expect(loadConfig({ SEED_DEMO: 'false', PORT: '0' })).toMatchObject({ SEED_DEMO: false, PORT: 0 });
  });
});
