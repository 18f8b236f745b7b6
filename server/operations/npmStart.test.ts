import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/eventually';
import { exitOf, freePort } from '../test/processes';

/**
 * The README's quick start, as a new user runs it: `npm start`, build a dashboard, Ctrl-C in the
 * terminal, `npm start` again. Ctrl-C is a SIGINT to the terminal's whole foreground process
 * group — npm, and the server, which also gets npm's forwarded copy of it — so that is what is
 * sent here. The web app's build is skipped (scripts/webBuild.test.ts covers it).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-npmstart-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) process.kill(-c.pid!, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

async function npmStart(port: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dir, DB_ENGINE: 'jongodb', SKIP_WEB_BUILD: '1', LOG_LEVEL: 'info' };
  delete env.ADMIN_TOKEN;
  delete env.SEED_DEMO;
  // Its own process group, as a terminal's foreground job is.
  const child = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  await eventually(() => expect(log).toMatch(/admin console: .*generated for this run: \S+\)/), { timeout: 60_000, interval: 100 });
  const token = /generated for this run: (\S+)\)/.exec(log)![1];
  const api = (method: string, p: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${port}${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
  return { child, api, log: () => log };
}

describe('the quick start across Ctrl-C', () => {
  it('keeps the dashboards a new user made; the demo comes once', async () => {
    const port = await freePort();
    const first = await npmStart(port);
    expect(first.log()).toContain(`database: embedded (offline engine), data kept in ${dir} (snapshot every 5 s)`);
    expect(first.log()).toContain('demo data seeded');
    const sources = (await first.api('GET', '/api/data/sources')).body;
    const made = await first.api('POST', '/api/admin/dashboards', { name: 'Made before Ctrl-C', dataSourceId: sources[0].id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // Ctrl-C right away: the dashboard is in no periodic snapshot yet, only in the last one.
    const exited = exitOf(first.child);
    process.kill(-first.child.pid!, 'SIGINT');
    await exited;
    expect(first.log()).toMatch(/SIGINT: shutting down/);
    expect(first.log()).not.toContain('second signal');
    expect(first.log()).toMatch(/stopped in \d+ ms/);

    const second = await npmStart(port);
    try {
      expect(second.log()).not.toContain('demo data seeded');
      const names = (await second.api('GET', '/api/admin/dashboards')).body.map((d: { name: string }) => d.name).sort();
      expect(names).toEqual(['Made before Ctrl-C', 'Support Overview']);
    } finally {
      const done = exitOf(second.child);
      process.kill(-second.child.pid!, 'SIGINT');
      await done;
    }
  }, 150_000);
});
