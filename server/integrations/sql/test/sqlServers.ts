import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { freePort } from '../../../test/processes';

/**
 * Debian's PostgreSQL 15 and MariaDB 10.11, started by a test file once (`beforeAll`) in a temp
 * folder, as their own system users when the tests run as root (both refuse to run as root), on a
 * free loopback port; `stop()` ends the server and removes the folder. Nothing is fsynced: the
 * data lives as long as the file's tests.
 */
export interface SqlServer {
  host: string;
  port: number;
  /** host:port, for OUTBOUND_ALLOWED_HOSTS. */
  hostPort: string;
  /** A connection string for a user of this server (the default database when none is given). */
  url(user: string, password: string, database?: string): string;
  /** The superuser's connection string (postgres / livedash_admin). */
  adminUrl: string;
  /** Runs SQL as the server's superuser (params: `$1` for PostgreSQL, `?` for MariaDB). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Creates a login that may only read: `SELECT` on every table of the test database. */
  addReader(user: string, password: string): Promise<void>;
  /** Ends every connection of a user (as an administrator would), for failure-mid-run tests. */
  disconnect(user: string): Promise<number>;
  /** How long start-up took (initdb/install, start, ready), in ms — for the file's notes. */
  startedInMs: number;
  stop(): Promise<void>;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';
const running = new Set<{ child: ChildProcess; dir: string }>();
// A test process that dies without its afterAll leaves no server behind.
process.once('exit', () => {
  for (const r of running) {
    r.child.kill('SIGKILL');
    fs.rmSync(r.dir, { recursive: true, force: true });
  }
});

/** uid/gid of a system user, to start the server as that user when we are root. */
function systemUser(name: string): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`This test needs the system user "${name}": apt-get install -y postgresql mariadb-server`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function tempDir(prefix: string, owner?: { uid: number; gid: number }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(bin: string, args: string[], owner?: { uid: number; gid: number }, cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...owner, cwd, env: { ...process.env, LANG: 'C', LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} exited with ${code}:\n${out}`))));
  });
}

/** Starts a server and resolves once its log says it is ready (stderr), or rejects with that log. */
function startUntil(bin: string, args: string[], ready: RegExp, owner: { uid: number; gid: number } | undefined, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...owner, cwd: dir, env: { ...process.env, LANG: 'C', LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(bin)} was not ready within 30 s:\n${out}`));
    }, 30_000);
    const onData = (d: Buffer) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        // Keep draining the pipes so the server never blocks on a full one.
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(bin)} exited with ${code} before it was ready:\n${out}`));
    });
  });
}

function stopper(child: ChildProcess, dir: string, signal: NodeJS.Signals): () => Promise<void> {
  const entry = { child, dir };
  running.add(entry);
  return async () => {
    running.delete(entry);
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => (clearTimeout(kill), resolve()));
        child.kill(signal);
      });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

const secret = () => crypto.randomBytes(12).toString('hex');

export interface SqlServerOptions {
  /** Serve TLS with a self-signed certificate for `localhost` (made with openssl, readable by the server's user only). */
  tls?: boolean;
}

/** A self-signed certificate and key in `dir`, owned by the server's user (both servers refuse a key others may read). */
async function selfSigned(dir: string, owner?: { uid: number; gid: number }): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, 'server.crt');
  const key = path.join(dir, 'server.key');
  await run('/usr/bin/openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-days', '2', '-keyout', key, '-out', cert]);
  fs.chmodSync(key, 0o600);
  if (owner) for (const f of [cert, key]) fs.chownSync(f, owner.uid, owner.gid);
  return { cert, key };
}

/**
 * A freshly initialised data folder, made once per machine and binary version and copied for each
 * test file: initdb and mariadb-install-db take 1.5–8 s on a busy 2-core box (MariaDB's bootstrap
 * runs some 3 MB of SQL), a copy about 0.1 s. Built beside the final name and renamed into place,
 * so files starting at the same time never see half a template (the loser drops its own).
 */
async function template(name: string, binary: string, build: (dir: string) => Promise<void>): Promise<string> {
  const { size, mtimeMs } = fs.statSync(binary);
  const dir = path.join(os.tmpdir(), `livedash-template-${name}-${size}-${Math.round(mtimeMs)}`);
  if (fs.existsSync(path.join(dir, 'ready'))) return dir;
  const work = fs.mkdtempSync(`${dir}-building-`);
  try {
    await build(work);
    fs.writeFileSync(path.join(work, 'ready'), '');
    fs.renameSync(work, dir);
  } catch (e) {
    fs.rmSync(work, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'ready'))) throw e;
  }
  return dir;
}

/** A test file's own copy of a template's data folder, owner and modes kept (`cp -a`). */
async function copyData(from: string, owner: { uid: number; gid: number } | undefined, prefix: string): Promise<{ dir: string; data: string }> {
  const dir = tempDir(prefix, owner);
  const data = path.join(dir, 'data');
  await run('/bin/cp', ['-a', path.join(from, 'data'), data]);
  return { dir, data };
}

/** PostgreSQL 15; tests use its database `postgres` (a CREATE DATABASE costs seconds on a busy box); the superuser `postgres` signs in with a password (scram-sha-256). */
export async function startPostgres(options: SqlServerOptions = {}): Promise<SqlServer> {
  const began = Date.now();
  if (!fs.existsSync(`${PG_BIN}/postgres`)) throw new Error('This test needs PostgreSQL 15: apt-get install -y postgresql');
  const owner = systemUser('postgres');
  const initialised = await template('postgres', `${PG_BIN}/postgres`, async (work) => {
    if (owner) fs.chownSync(work, owner.uid, owner.gid);
    fs.writeFileSync(path.join(work, 'pw'), secret(), { mode: 0o644 });
    const args = ['-D', path.join(work, 'data'), '-A', 'scram-sha-256', '-U', 'postgres', `--pwfile=${path.join(work, 'pw')}`];
    await run(`${PG_BIN}/initdb`, [...args, '--no-sync', '-E', 'UTF8', '--locale=C', '--no-instructions'], owner, work);
  });
  const password = fs.readFileSync(path.join(initialised, 'pw'), 'utf8');
  const { dir, data } = await copyData(initialised, owner, 'livedash-pg-');
  const port = await freePort();
  const tls = options.tls ? await selfSigned(dir, owner) : null;
  const tlsArgs = tls ? ['-c', 'ssl=on', '-c', `ssl_cert_file=${tls.cert}`, '-c', `ssl_key_file=${tls.key}`] : [];
  const child = await startUntil(
    `${PG_BIN}/postgres`,
    ['-D', data, '-p', String(port), '-k', dir, '-h', '127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=40', ...tlsArgs],
    /ready to accept connections/,
    owner,
    dir,
  );
  const stop = stopper(child, dir, 'SIGINT'); // SIGINT: PostgreSQL's "fast" shutdown
  const url = (user: string, pw: string, database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(pw)}@127.0.0.1:${port}/${database}`;
  const sql = async <T>(text: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url('postgres', password) });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    host: '127.0.0.1',
    port,
    hostPort: `127.0.0.1:${port}`,
    url,
    adminUrl: url('postgres', password),
    sql,
    addReader: async (user, pw) => {
      const id = pg.escapeIdentifier(user);
      await sql(`CREATE ROLE ${id} LOGIN PASSWORD ${pg.escapeLiteral(pw)}`);
      await sql(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${id}; ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${id}`);
    },
    disconnect: async (user) =>
      (await sql<{ n: string }>('SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE usename = $1', [user])).map((r) => Number(r.n))[0] ?? 0,
    startedInMs: Date.now() - began,
    stop,
  };
}

/** MariaDB 10.11 with a database `livedash_test`; the administrator `livedash_admin` signs in with a password over TCP. */
export async function startMariadb(options: SqlServerOptions = {}): Promise<SqlServer> {
  const began = Date.now();
  if (!fs.existsSync('/usr/sbin/mariadbd')) throw new Error('This test needs MariaDB: apt-get install -y mariadb-server');
  const owner = systemUser('mysql');
  const asUser = owner ? ['--user=mysql'] : [];
  const initialised = await template('mariadb', '/usr/sbin/mariadbd', async (work) => {
    if (owner) fs.chownSync(work, owner.uid, owner.gid);
    const args = ['--no-defaults', ...asUser, `--datadir=${path.join(work, 'data')}`, '--auth-root-authentication-method=socket', '--skip-test-db'];
    await run('/usr/bin/mariadb-install-db', [...args, '--skip-name-resolve', '--innodb-log-file-size=8M'], undefined, work);
  });
  const { dir, data } = await copyData(initialised, owner, 'livedash-maria-');
  const password = secret();
  // Run by the server at start: the administrator the tests use, and the test database.
  const init = path.join(dir, 'init.sql');
  fs.writeFileSync(
    init,
    `CREATE DATABASE IF NOT EXISTS livedash_test;\nCREATE USER IF NOT EXISTS 'livedash_admin'@'%' IDENTIFIED BY '${password}';\nGRANT ALL PRIVILEGES ON *.* TO 'livedash_admin'@'%' WITH GRANT OPTION;\n`,
    { mode: 0o644 },
  );
  const port = await freePort();
  const tls = options.tls ? await selfSigned(dir, owner) : null;
  const child = await startUntil(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      ...asUser,
      `--datadir=${data}`,
      `--port=${port}`,
      `--socket=${path.join(dir, 'my.sock')}`,
      `--pid-file=${path.join(dir, 'my.pid')}`,
      `--init-file=${init}`,
      '--bind-address=127.0.0.1',
      '--skip-log-bin',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=32M',
      '--innodb-log-file-size=8M',
      '--innodb-flush-log-at-trx-commit=0',
      '--max-connections=40',
      ...(tls ? [`--ssl-cert=${tls.cert}`, `--ssl-key=${tls.key}`] : []),
    ],
    /ready for connections/,
    undefined,
    dir,
  );
  const stop = stopper(child, dir, 'SIGTERM');
  const url = (user: string, pw: string, database = 'livedash_test') => `mysql://${encodeURIComponent(user)}:${encodeURIComponent(pw)}@127.0.0.1:${port}/${database}`;
  const sql = async <T>(text: string, params: unknown[] = []) => {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'livedash_admin', password, database: 'livedash_test', multipleStatements: true });
    try {
      const [rows] = await conn.query(text, params);
      return (Array.isArray(rows) ? rows : []) as T[];
    } finally {
      await conn.end();
    }
  };
  return {
    host: '127.0.0.1',
    port,
    hostPort: `127.0.0.1:${port}`,
    url,
    adminUrl: url('livedash_admin', password),
    sql,
    addReader: async (user, pw) => {
      await sql(`CREATE USER ?@'%' IDENTIFIED BY ?; GRANT SELECT ON livedash_test.* TO ?@'%'`, [user, pw, user]);
    },
    disconnect: async (user) => {
      const ids = await sql<{ ID: number }>('SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?', [user]);
      for (const { ID } of ids) await sql(`KILL CONNECTION ${Number(ID)}`).catch(() => undefined);
      return ids.length;
    },
    startedInMs: Date.now() - began,
    stop,
  };
}
