import { describe, expect, it } from 'vitest';
import { readConnectionString } from '@common/schemas/integrations/database';
import { SECRET_MASK } from './SecretInput';
import { connectionString, databaseConfig, databaseValues, readConnection } from './databaseValues';

describe('a database form: the connection string in its parts, and back', () => {
  it('reads a stored config (password masked) into fields and makes the same config again, the mask kept for the server', () => {
    const stored = { connectionString: `postgres://reader:${SECRET_MASK}@db.example.com:6543/shop?sslmode=require&channel_binding=require`, query: 'SELECT 1 AS id', primaryKey: 'id', incremental: { column: 'updated_at' }, maxPages: 5 };
    const values = databaseValues(stored);
    expect(values).toEqual({ host: 'db.example.com', port: 6543, database: 'shop', user: 'reader', password: SECRET_MASK, tls: 'require', params: 'channel_binding=require', query: 'SELECT 1 AS id', primaryKey: 'id', incrementalColumn: 'updated_at', maxPages: 5 });
    expect(databaseConfig('postgres', values)).toEqual({ ...stored, connectionString: `postgres://reader:${SECRET_MASK}@db.example.com:6543/shop?channel_binding=require&sslmode=require` });
  });

  it('percent-encodes what a person types, so the server reads back the same user, password and database', () => {
    const made = connectionString('mysql', { ...databaseValues(null), host: '10.0.0.5', user: 'app@eu', password: 'p@ss/w:rd?#1', database: 'sales db', tls: 'verify-ca' });
    const read = readConnectionString(made, 'mysql');
    expect('address' in read && read.address).toMatchObject({ host: '10.0.0.5', port: 3306, user: 'app@eu', password: 'p@ss/w:rd?#1', database: 'sales db', tls: 'verify-ca' });
    expect(databaseConfig('mysql', { ...databaseValues(null), host: 'h', database: 'd', user: 'u', query: 'SELECT 1' })).toEqual({ connectionString: 'mysql://u@h/d', query: 'SELECT 1' });
  });

  it('fills the fields from a pasted connection string, or leaves them when it is not one', () => {
    expect(readConnection('postgresql://u:p%40ss@[::1]:5433/app?sslmode=verify-full')).toEqual({ user: 'u', password: 'p@ss', host: '[::1]', port: 5433, database: 'app', tls: 'verify-full', params: '' });
    expect(readConnection('not a connection string')).toBeNull();
  });
});
