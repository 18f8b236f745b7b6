/**
 * Preloaded into the server under soak (`node --expose-gc --import tsx --import ./scripts/soak/probe.ts
 * server/main.ts`): answers the soak driver over IPC with the heap after a full GC, and writes a heap
 * snapshot on request. It touches nothing of the server, so the same probe measures any version.
 */
import v8 from 'node:v8';

type Ask = { probe: 'memory'; id: number } | { probe: 'snapshot'; id: number; file: string };

if (process.send) {
  process.on('message', (m: Ask) => {
    if (!m || typeof m !== 'object' || !('probe' in m)) return;
    if (m.probe === 'memory') {
      const before = process.memoryUsage();
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const after = process.memoryUsage();
      process.send!({ probe: 'memory', id: m.id, rss: before.rss, heapBeforeGc: before.heapUsed, heapAfterGc: after.heapUsed, external: after.external, gc: Boolean(gc) });
    } else if (m.probe === 'snapshot') {
      process.send!({ probe: 'snapshot', id: m.id, file: v8.writeHeapSnapshot(m.file) });
    }
  });
  // The IPC channel must not keep a stopping server alive.
  process.channel?.unref();
}
