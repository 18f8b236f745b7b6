import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const live = new Set<ChildProcess>();
const SETPRIV = '/usr/bin/setpriv';

// The engine outlives its parent unless killed: make sure every exit path takes it down.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Path of the offline engine's binary, or null when the package is not installed here. */
export function jongodbBinary(): string | null {
  try {
    return path.join(path.dirname(require.resolve('@jongodb/memory-server-bin-linux-x64-gnu/package.json')), 'bin', 'jongodb');
  } catch {
    return null;
  }
}

/** How many engine processes this process has running (tests check nothing is left behind). */
export const runningEngines = () => live.size;

export interface JongodbHandle {
  uri: string;
  stop(): Promise<void>;
}

/** Starts the in-memory MongoDB-compatible engine on a free loopback port. */
export async function startJongodb(dbName: string, timeoutMs = 15_000): Promise<JongodbHandle> {
  const bin = jongodbBinary();
  if (!bin) throw new Error('the package @jongodb/memory-server-bin-linux-x64-gnu is not installed');
  // As a single-node replica set it takes transactions, which the record writer uses for updates.
  const args = ['--host=127.0.0.1', '--port=0', `--database=${dbName}`, '--topology-profile=singleNodeReplicaSet', '--replica-set-name=rs0'];
  // setpriv --pdeathsig: the kernel kills the engine when this process dies, even by SIGKILL, so
  // no engine is ever orphaned. (Linux only, like the engine itself; without setpriv the exit
  // handler above still covers every orderly exit.)
  const guarded = fs.existsSync(SETPRIV);
  // Its own process group: a Ctrl-C in the terminal reaches the server, which takes the last
  // snapshot from the engine before stopping it; the engine must not have stopped first.
  const options = { stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[], detached: true };
  const child = guarded ? spawn(SETPRIV, ['--pdeathsig', 'SIGKILL', '--', bin, ...args], options) : spawn(bin, args, options);
  live.add(child);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        live.delete(child);
        return resolve();
      }
      child.once('exit', () => {
        live.delete(child);
        resolve();
      });
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    });
  try {
    const uri = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`jongodb did not start within ${timeoutMs} ms`)), timeoutMs);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /JONGODB_URI=(\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)));
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`jongodb exited with code ${code}: ${err.trim()}`));
      });
    });
    child.stdout!.resume();
    child.stderr!.resume();
    // It does not speak the driver's streaming heartbeat protocol: make clients poll.
    const sep = uri.includes('?') ? '&' : '?';
    return { uri: `${uri}${sep}serverMonitoringMode=poll`, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
