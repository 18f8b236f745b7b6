/**
 * The load generator of bench:read, in a child process so it does not share the server's event
 * loop: `connections` keep-alive connections send GETs to one loopback URL for `durationMs` and
 * report the answers counted by status, and the bytes received. Driven over IPC.
 */
import http from 'node:http';

type Job = { url: string; headers: Record<string, string>; connections: number; durationMs: number };

function run(job: Job): Promise<{ requests: number; bytes: number; statuses: Record<number, number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const end = Date.now() + job.durationMs;
  const statuses: Record<number, number> = {};
  let requests = 0;
  let bytes = 0;
  const loop = () =>
    new Promise<void>((resolve) => {
      const once = () => {
        if (Date.now() >= end) return resolve();
        const req = http.get(job.url, { agent, headers: job.headers }, (res) => {
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => {
            statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
            requests++;
            once();
          });
        });
        req.on('error', () => resolve());
      };
      once();
    });
  return Promise.all(Array.from({ length: job.connections }, loop)).then(() => {
    agent.destroy();
    return { requests, bytes, statuses };
  });
}

process.on('message', (job: Job | { stop: true }) => {
  if ('stop' in job) process.exit(0);
  void run(job).then((r) => process.send!(r));
});
process.send!({ up: true });
