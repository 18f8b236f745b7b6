import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidRunning } from '../models/serverProcess';

/** `DATA_DIR=:memory:` keeps nothing between runs. */
export const IN_MEMORY = ':memory:';

/** The offline engine's snapshot in the data folder (EJSON, see db/snapshot). */
export const SNAPSHOT_FILE = 'livedash-snapshot.ejson';
const LOCK_FILE = 'livedash.lock';
/** The lock files this process holds (tests run several apps in one process: one of them per folder too). */
const heldHere = new Set<string>();

/** A start refused for a reason the operator can act on: the process exits with its message alone (no stack). */
export class StartRefused extends Error {}

/** The folder as the operator wrote it, and where it is when that was relative. */
export const describeDir = (dir: string) => (path.isAbsolute(dir) ? dir : `${dir} (${path.resolve(dir)})`);

interface LockHolder {
  pid: number;
  host: string;
  /** The OS process's start (clock ticks since boot, /proc/<pid>/stat): a later process given the same pid is another one. */
  procStart: string | null;
  startedAt: string;
}

function procStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) begin after the last ')': starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function holderAlive(h: LockHolder): boolean {
  if (h.host !== os.hostname()) return true; // another machine's process cannot be checked from here
  if (!pidRunning(h.pid)) return false;
  const now = procStart(h.pid);
  return !(h.procStart && now && now !== h.procStart);
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return typeof h.pid === 'number' ? h : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data folder for this process: a lock file naming its pid, written whole (a temp file
 * linked into place, which fails if one is there). A lock whose process is gone (a kill -9, a
 * crash) is taken over; one held by a running process refuses the start, naming the folder and
 * the pid. `release()` removes it (a clean stop).
 */
export function lockDataDir(dir: string): { release(): void } {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.resolve(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: os.hostname(), procStart: procStart(process.pid), startedAt: new Date().toISOString() };
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(me));
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(tmp, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readHolder(file);
      const mine = holder?.pid === process.pid && holder.host === me.host && !heldHere.has(file);
      if (holder && holderAlive(holder) && !mine) {
        const where = holder.host === me.host ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
        throw new StartRefused(
          `DATA_DIR ${describeDir(dir)} is in use by another LiveDash server (${where}, since ${holder.startedAt}). ` +
            `Stop that server first, or give this one another DATA_DIR (or DATA_DIR=:memory: to keep nothing).` +
            (holder.host === me.host ? '' : ` If that server is gone, remove ${file}.`),
        );
      }
      // Gone (a kill -9, an earlier process with this pid) or left by an app of this process that did not stop: taken over.
      if (attempt > 2) throw new StartRefused(`DATA_DIR ${describeDir(dir)}: could not take its lock ${file}; remove it if no server runs there`);
      fs.rmSync(file, { force: true });
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  heldHere.add(file);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      // Only our own lock: a folder taken over meanwhile (ours judged gone) is not another's to lose.
      if (readHolder(file)?.pid === me.pid) fs.rmSync(file, { force: true });
    },
  };
}
