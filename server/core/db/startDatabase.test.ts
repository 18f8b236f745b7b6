import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApp } from '../../app';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { runningEngines } from './jongodb';
import { eventually } from '../../test/eventually';
import { startTestServer } from '../../test/harness';
import { alive, descendants, startServerProcess } from '../../test/processes';

const quiet = createLogger('silent');

describe('database bootstrap and shutdown', () => {
  it('stops the database it started when startup fails halfway', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as net.AddressInfo).port;
    const before = runningEngines();
    await expect(startApp(loadConfig({ PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', DATA_DIR: ':memory:' }), quiet)).rejects.toThrow(/EADDRINUSE/);
    expect(runningEngines()).toBe(before);
    blocker.close();
  });

  it('npm start\'s process seeds the demo, logs its mode and token, and leaves no engine behind on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ADMIN_TOKEN: 'spawned-admin-token-1', LOG_LEVEL: 'info', DATA_DIR: ':memory:' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no start within 40 s:\n${log}`)), 40_000);
        const check = () => {
          const m = /listening on (http:\/\/\S+)/.exec(log);
          if (m && log.includes('admin console:')) {
            clearTimeout(t);
            resolve(m[1]);
          }
        };
        child.stdout.on('data', check);
      });
      expect(log).toMatch(/database: embedded \((mongod|offline engine)\), in memory only \(DATA_DIR=:memory:\): data is lost on exit/);
      expect(log).toContain('/admin  (the ADMIN_TOKEN you set proves the first admin');
      expect(log).not.toContain('spawned-admin-token-1');
      expect(log).toContain('demo data seeded');
      const view = await (await fetch(`${url}/api/dashboards`)).json();
      expect(view[0].name).toBe('Support Overview');
      const dash = await (await fetch(`${url}/api/dashboards/${view[0].id}`)).json();
      expect(dash.records).toHaveLength(150);
      expect(dash.tabs.map((t: { type: string }) => t.type)).toEqual([null, 'table', 'bucket']);
      // The Support queue template: three KPIs, tickets by priority and tickets per day.
      expect(dash.tabs[0].widgets.map((w: { type: string }) => w.type)).toEqual(['kpi', 'kpi', 'kpi', 'bar', 'line']);

      const kids = descendants(child.pid!);
      expect(kids.length).toBeGreaterThan(0);
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      expect(code).toBe(0);
      // Zombies are reaped by init shortly after their parent exits.
      await eventually(() => expect(kids.filter(alive)).toEqual([]), { timeout: 3_000, interval: 100 });
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
  });

  it('leaves no offline engine behind even when the server is killed with SIGKILL', async () => {
    const server = await startServerProcess({ SEED_DEMO: 'false', DB_ENGINE: 'jongodb' });
    const kids = descendants(server.child.pid!);
    expect(kids.length).toBeGreaterThan(0);
    server.child.kill('SIGKILL');
    await eventually(() => expect(kids.filter(alive)).toEqual([]), { timeout: 5_000, interval: 100 });
  });

  it('keeps data between restarts with DATA_DIR (real mongod only)', async (ctx) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-data-'));
    // The engine choice is what this test is about: ask for `auto`, not the tests' pinned engine.
    const first = await startTestServer({ DATA_DIR: dir, DB_ENGINE: 'auto' });
    try {
      if (first.app.ctx.db.mode !== 'embedded-mongod') {
        console.log(`skipped: DATA_DIR persistence needs a real mongod; this machine runs ${first.app.ctx.db.mode} (${first.app.ctx.db.reason})`);
        ctx.skip();
      }
      await first.http('POST', '/api/admin/data-sources', { body: { name: 'Kept' } });
    } finally {
      await first.close();
    }
    const second = await startTestServer({ DATA_DIR: dir, DB_ENGINE: 'auto' });
    try {
      expect((await second.http('GET', '/api/data/sources')).body.map((d: { name: string }) => d.name)).toEqual(['Kept']);
    } finally {
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
