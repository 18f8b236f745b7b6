import http from 'node:http';
import type net from 'node:net';

export interface ReceivedCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

type Answer = number | 'redirect' | { status: number; body: string };

export interface TestReceiver {
  /** http://127.0.0.1:<port> */
  url: string;
  /** host:port, for OUTBOUND_ALLOWED_HOSTS. */
  hostPort: string;
  calls: ReceivedCall[];
  /** TCP connections accepted so far (a refused address never gets one). */
  readonly connections: number;
  /** The calls to one path (one channel), JSON bodies parsed. */
  on(path: string): (ReceivedCall & { json: any })[];
  /** The next answers of a path, in order (then 200): a status, a status with a body of the receiver's own, or `redirect` (302 to another path). */
  answer(path: string, ...next: Answer[]): void;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on loopback that records what webhooks, Slack and Teams channels are sent,
 * and answers 200 — or, when told, a 503 or a redirect — to test retries and refusals.
 */
export async function startReceiver(): Promise<TestReceiver> {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, Answer[]>();
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      calls.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const next = answers.get(path)?.shift() ?? 200;
      if (next === 'redirect') {
        res.writeHead(302, { location: `${path}/moved` });
        return res.end();
      }
      const { status, body } = typeof next === 'number' ? { status: next, body: next === 200 ? 'ok' : 'unavailable' } : next;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    });
  });
  let connections = 0;
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    calls,
    get connections() {
      return connections;
    },
    on: (path) => calls.filter((c) => c.path === path).map((c) => ({ ...c, json: JSON.parse(c.body || 'null') })),
    answer: (path, ...next) => answers.set(path, [...(answers.get(path) ?? []), ...next]),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
