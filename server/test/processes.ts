import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { TEST_ENGINE } from './engine';

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** A real redis-server (Debian package) on a free loopback port, stopped by `stop()`. */
export async function startRedis(atPort?: number): Promise<{ url: string; port: number; stop(): Promise<void>; pause(): void; resume(): void }> {
  const bin = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => fs.existsSync(p));
  if (!bin) throw new Error('This test needs redis-server: apt-get install -y redis-server');
  const port = atPort ?? (await freePort());
  const child = spawn(bin, ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (/Ready to accept connections/i.test(d.toString())) {
        clearTimeout(t);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      // A paused server would not hear SIGTERM.
      child.kill('SIGCONT');
      await stopChild(child);
    },
    // A Redis that hangs: its connections stay open, it answers nothing (SIGSTOP), until resumed.
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
  };
}

/** Runs `server/main.ts` as its own process (with node's `execArgv`, e.g. `--cpu-prof`); resolves once it listens. */
export async function startServerProcess(env: Record<string, string>, execArgv: string[] = []): Promise<{ url: string; child: ChildProcess; log: () => string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...execArgv, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...TEST_ENGINE, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const port = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL'); // not left running past a failed start
      reject(new Error(`server process did not start within 90 s:\n${out}`));
    }, 90_000);
    // Detached once found: a long run's log (a storm's request lines) is not searched again per chunk.
    const started = () => {
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m && out.includes('admin console:')) {
        clearTimeout(t);
        child.stdout!.off('data', started);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', started);
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}:\n${out}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, log: () => out, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/** The child's exit: its code, or the signal that ended it. */
export const exitOf = (child: { once(e: 'exit', fn: (code: number | null, signal: NodeJS.Signals | null) => void): unknown }) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

/** Every live process below `pid` (from /proc), so a test can tell nothing was left behind. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}

/** Whether a process of this id still runs (a zombie counts until it is reaped). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
