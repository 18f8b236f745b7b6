/**
 * Part of `npm run bench:pull`: an HTTP JSON API in its own process (so its work is not counted as
 * the server's), answering `GET /tickets?limit=N&cursor=C&total=T` with `{data: [...], next}` —
 * generated tickets of ~300 bytes, cursor-paged. Prints `PORT=<port>` once listening.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export function ticket(n: number) {
  return {
    ticket_id: `T-${String(n).padStart(7, '0')}`,
    subject: `Customer cannot complete checkout on step ${n % 7}`,
    status: ['open', 'in progress', 'closed'][n % 3],
    priority: ['high', 'medium', 'low'][n % 3],
    assignee: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'][n % 3],
    created_at: new Date(1_700_000_000_000 + n * 60_000).toISOString(),
    channel: 'email',
    region: 'EMEA',
  };
}

const server = http.createServer((req, res) => {
  const u = new URL(req.url ?? '/', 'http://x');
  const limit = Number(u.searchParams.get('limit') ?? 1000);
  const total = Number(u.searchParams.get('total') ?? 1000);
  const from = Number(u.searchParams.get('cursor') ?? 1);
  const to = Math.min(total, from + limit - 1);
  const data = [];
  for (let n = from; n <= to; n++) data.push(ticket(n));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ data, next: to < total ? String(to + 1) : null }));
});

if (process.argv[1]?.endsWith('pull/upstream.ts')) {
  server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
}
