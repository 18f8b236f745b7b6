import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built web app, made only when it is missing or older than its sources — `npm start`'s
 * prestart and the tests' global setup share this. Vite builds into a temp folder beside it, which
 * is then renamed into place, so a server serving the old build never sees half of the new one,
 * and a build that fails leaves the old one. One build at a time per folder: a second start waits
 * for the first's build (a lock file naming its pid; a dead holder's lock is taken over) and then
 * finds it up to date.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the web app is built from. */
export const WEB_SOURCES = ['web', 'common', 'vite.config.ts'].map((p) => path.join(root, p));

function newest(p: string): number {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) t = Math.max(t, newest(path.join(p, entry)));
  return t;
}

/** Whether `outDir` holds a build newer than every source. */
export function isFresh(outDir: string, sources: string[] = WEB_SOURCES): boolean {
  const index = fs.statSync(path.join(outDir, 'index.html'), { throwIfNoEntry: false });
  return Boolean(index) && index!.mtimeMs >= Math.max(...sources.map(newest));
}

export interface BuildOptions {
  outDir: string;
  sources?: string[];
  /** Extra `vite build` arguments (a test's own `--config`). */
  viteArgs?: string[];
  log?: (line: string) => void;
}

export type BuildOutcome = 'up to date' | 'built' | 'built by another start';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the folder's build lock, waiting while a live process holds it. */
async function takeLock(lock: string, log: (line: string) => void): Promise<() => void> {
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number(fs.readFileSync(lock, 'utf8').trim() || NaN);
    if (!Number.isInteger(holder) || !alive(holder)) {
      // Left by a build that was killed: taken over (only if it is still that one's).
      if (fs.readFileSync(lock, 'utf8').trim() === String(holder)) fs.rmSync(lock, { force: true });
      continue;
    }
    if (!told) log(`waiting for the web app build of process ${holder}…`);
    told = true;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function runVite(outDir: string, viteArgs: string[]): Promise<void> {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return new Promise((resolve, reject) => {
    // NODE_ENV=production: vitest sets NODE_ENV=test, which would make a development React build.
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, ...viteArgs], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`))));
  });
}

/** Builds the web app into `outDir` unless it is up to date (see the top of this file). */
export async function ensureWebBuilt(opts: BuildOptions): Promise<BuildOutcome> {
  const outDir = path.resolve(opts.outDir);
  const sources = opts.sources ?? WEB_SOURCES;
  const log = opts.log ?? ((line: string) => console.log(line));
  if (isFresh(outDir, sources)) return 'up to date';
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  const release = await takeLock(`${outDir}.build-lock`, log);
  try {
    if (isFresh(outDir, sources)) return 'built by another start';
    const tmp = `${outDir}.building-${process.pid}`;
    const old = `${outDir}.old-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    log(`building the web app into ${path.relative(root, outDir) || outDir} (it is ${fs.existsSync(path.join(outDir, 'index.html')) ? 'older than its sources' : 'missing'})…`);
    try {
      await runVite(tmp, opts.viteArgs ?? []);
      // Two renames: a folder cannot be renamed over a folder that has files.
      if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
      fs.renameSync(tmp, outDir);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.rmSync(old, { recursive: true, force: true });
    }
    return 'built';
  } finally {
    release();
  }
}

/** `npm start`'s prestart: `tsx scripts/webBuild.ts [--out DIR] [--sources A,B] [--config FILE]`; SKIP_WEB_BUILD=1 skips. */
async function cli() {
  if (process.env.SKIP_WEB_BUILD === '1') return;
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const outDir = arg('--out') ?? path.resolve(root, process.env.WEB_DIST ?? 'dist/web');
  const sources = arg('--sources')?.split(',').map((p) => path.resolve(p));
  const config = arg('--config');
  const outcome = await ensureWebBuilt({ outDir, sources, viteArgs: config ? ['--config', config] : [] });
  console.log(`web app: ${outcome}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
