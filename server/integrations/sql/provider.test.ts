import { describe, expect, it } from 'vitest';
import { mysqlProvider } from '../mysql';
import { postgresProvider } from '../postgres';
import { SECRET_MASK } from '../provider';

/** The database providers' parts that need no server: config, secrets, the check when saved. */
const pg = postgresProvider;
const parse = (config: unknown) => pg.config.parse(config);
const base = { query: 'SELECT * FROM orders;', primaryKey: 'id' };

describe('config', () => {
  it('takes a query with a trailing semicolon, and refuses a config that would add every row again on each sync', () => {
    expect(parse({ ...base, connectionString: 'postgres://reader:pw@db.example.com/shop' }).query).toBe('SELECT * FROM orders');
    const none = pg.config.safeParse({ connectionString: 'postgres://reader:pw@db.example.com/shop', query: 'SELECT 1' });
    expect(none.error?.issues[0]).toMatchObject({ path: ['primaryKey'], message: expect.stringMatching(/^Name a primaryKey .* or an incremental\.column/) });
  });

  it('says what is wrong with a connection string without repeating it', () => {
    const wrong = (connectionString: string, provider = pg) => provider.config.safeParse({ ...base, connectionString }).error?.issues[0].message;
    expect(wrong('mysql://reader:hunter22@db/shop')).toMatch(/^connectionString must start with postgres:\/\/ or postgresql:\/\//);
    expect(wrong('postgres://reader:hunter22@db/shop', mysqlProvider)).toMatch(/^connectionString must start with mysql:\/\/ or mariadb:\/\//);
    expect(wrong('postgres://reader:hunter22@db/shop?sslrootcert=/etc/passwd')).toBe('connectionString the parameter sslrootcert is not supported (only sslmode and channel_binding)');
    expect(wrong('postgres://reader:hunter22@db/shop?sslmode=prefer')).toMatch(/^connectionString sslmode=prefer is not supported: choose verify-full/);
    expect(wrong('postgres://reader:hunter22@db')).toMatch(/^connectionString names no database/);
    for (const raw of ['postgres://reader:hunter22@db/shop?sslmode=prefer', 'postgres://reader:hunter22@db']) expect(wrong(raw)).not.toContain('hunter22');
  });
});

describe('the one way out, when saved', () => {
  const check = (connectionString: string, allowed: string[] = []) => pg.checkTarget(parse({ ...base, connectionString }), allowed);
  it('refuses internal hosts unless listed, and plain text to a host that is not listed', () => {
    expect(check('postgres://r:p@10.1.2.3:5432/shop')).toEqual({ path: 'connectionString', message: '10.1.2.3:5432 is a loopback, private, link-local or otherwise non-public address (private), refused unless allowed: allow 10.1.2.3:5432 under Settings › Outbound hosts' });
    expect(check('postgres://r:p@localhost/shop')?.message).toMatch(/^localhost:5432 is a loopback/);
    expect(check('postgres://r:p@10.1.2.3:5432/shop', ['10.1.2.3:5432'])).toBeNull();
    expect(check('postgres://r:p@db.example.com/shop?sslmode=disable')?.message).toBe('connects to db.example.com:5432 without TLS (sslmode=disable), which only an allowed host:port may: allow db.example.com:5432 under Settings › Outbound hosts');
    expect(check('postgres://r:p@db.example.com/shop?sslmode=disable', ['db.example.com:5432'])).toBeNull();
    expect(check('postgres://r:p@db.example.com/shop')).toBeNull();
    expect(mysqlProvider.checkTarget(mysqlProvider.config.parse({ ...base, connectionString: 'mysql://r:p@[::1]/shop' }), [])?.message).toMatch(/^\[::1\]:3306 is a loopback/);
  });
});

describe('the password inside the connection string', () => {
  const stored = parse({ ...base, connectionString: 'postgres://reader:s%40cret-99@db.example.com:5433/shop?sslmode=require' });
  const { secrets } = pg;

  it('is masked in answers, the rest as typed, and is the one secret value to scrub', () => {
    expect(secrets.mask(stored)).toEqual({ ...stored, connectionString: `postgres://reader:${SECRET_MASK}@db.example.com:5433/shop?sslmode=require` });
    expect(secrets.values(stored)).toEqual(['s@cret-99']);
    expect(secrets.destination(stored)).toBe('db.example.com:5433');
    expect(pg.describe(stored)).toBe('db.example.com:5433/shop');
  });

  it('is kept when a change sends the mask back, leaves it out, or leaves the connection string out', () => {
    const masked = (secrets.mask(stored) as { connectionString: string }).connectionString;
    for (const connectionString of [masked, 'postgres://reader@db.example.com:5433/shop?sslmode=verify-full']) {
      const { config, kept } = secrets.keep({ ...base, connectionString }, stored);
      expect(kept).toEqual(['connectionString']);
      const after = parse(config);
      expect(secrets.values(after)).toEqual(['s@cret-99']);
    }
    expect(secrets.keep({ query: 'SELECT 2', primaryKey: 'id' }, stored)).toEqual({ config: { query: 'SELECT 2', primaryKey: 'id', connectionString: stored.connectionString }, kept: ['connectionString'] });
    // A new password is taken as sent.
    expect(secrets.keep({ ...base, connectionString: 'postgres://reader:new@db.example.com:5433/shop' }, stored).kept).toEqual([]);
    // Sent elsewhere, the kept password would leave for another host: the room compares destinations.
    const moved = secrets.keep({ ...base, connectionString: `postgres://reader:${SECRET_MASK}@evil.example.com/shop` }, stored);
    expect(secrets.destination(parse(moved.config))).not.toBe(secrets.destination(stored));
  });
});

describe('connection failures in words', () => {
  it('says a connection ended while idle between batches was lost, as pg and mysql2 find out at the next statement', async () => {
    const { networkWords } = await import('./connect');
    expect(networkWords({ message: "Can't add new command when connection is in closed state" }, 'db:3306')).toBe('the connection to db:3306 was lost');
    expect(networkWords({ message: 'Client has encountered a connection error and is not queryable' }, 'db:5432')).toBe('the connection to db:5432 was lost');
    expect(networkWords({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.5:5432' }, 'db:5432')).toBe('could not connect to db:5432: connection refused (is the database running and listening there?)');
    expect(networkWords({ code: 'ER_ACCESS_DENIED_ERROR', message: "Access denied for user 'r'@'h'" }, 'db:3306')).toBeNull();
  });
});
