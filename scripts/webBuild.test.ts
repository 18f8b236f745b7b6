import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start`'s prestart (scripts/webBuild.ts) on a small project of its own, built by the real
 * vite: two starts at once in one folder, a start with nothing to build, a start after a source
 * changed. (The product's own build takes half a minute here; what is tested is when and where
 * it builds, which does not depend on the project.)
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-webbuild-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const src = path.join(dir, 'src');
const out = path.join(dir, 'dist', 'web');
fs.mkdirSync(src);
fs.writeFileSync(path.join(src, 'index.html'), '<!doctype html><title>t</title><script type="module" src="./main.js"></script>\n');
fs.writeFileSync(path.join(src, 'main.js'), 'document.title = "built";\n');
const config = path.join(dir, 'vite.config.mjs');
fs.writeFileSync(config, `export default { root: ${JSON.stringify(src)}, logLevel: 'warn', build: { emptyOutDir: true } };\n`);

/** One `npm start` prestart, as a process of its own. */
const start = () =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const env = { ...process.env };
    delete env.SKIP_WEB_BUILD;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/webBuild.ts', '--out', out, '--sources', src, '--config', config], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.once('exit', (code) => resolve({ code, out: text }));
  });

describe('npm start builds the web app', () => {
  it('once for two starts at once in one folder, into a temp folder renamed into place', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect([a.code, b.code], a.out + b.out).toEqual([0, 0]);
    const outcomes = [a.out, b.out].map((o) => /web app: (.*)/.exec(o)?.[1]).sort();
    expect(outcomes).toEqual(['built', 'built by another start']);
    expect(fs.existsSync(path.join(out, 'index.html'))).toBe(true);
    expect(fs.readdirSync(path.join(out, 'assets')).some((f) => f.endsWith('.js'))).toBe(true);
    // Nothing left beside it: no temp folder, no old build, no lock.
    expect(fs.readdirSync(path.dirname(out))).toEqual(['web']);
  }, 60_000);

  it('not at all while the build is newer than its sources, and again once a source changed', async () => {
    expect((await start()).out).toContain('web app: up to date');
    fs.writeFileSync(path.join(src, 'main.js'), 'document.title = "built again";\n');
    const rebuilt = await start();
    expect(rebuilt.out).toContain('older than its sources');
    expect(rebuilt.out).toContain('web app: built');
    expect((await start()).out).toContain('web app: up to date');
  }, 60_000);

  it('keeps the last build when a build fails', async () => {
    const before = fs.readFileSync(path.join(out, 'index.html'));
    fs.writeFileSync(path.join(src, 'main.js'), 'import "./missing.js";\n');
    const failed = await start();
    expect(failed.code).toBe(1);
    expect(fs.readFileSync(path.join(out, 'index.html'))).toEqual(before);
    expect(fs.readdirSync(path.dirname(out))).toEqual(['web']);
  }, 60_000);
});
