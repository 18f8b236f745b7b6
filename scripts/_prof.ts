import http from 'node:http';
import { startTestServer } from '../server/test/harness';
const s = await startTestServer({ SEED_DEMO: 'true' });
const demo = (await s.http('GET', '/api/dashboards', { token: null })).body[0];
const url = `${s.url}/api/dashboards/${demo.id}`;
const etag = (await fetch(url)).headers.get('etag')!;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const one = (h: Record<string, string>) => new Promise<void>((r) => http.get(url, { agent, headers: h }, (res) => { res.resume(); res.on('end', () => r()); }));
for (const [name, h] of [['304', { 'if-none-match': etag }], ['identity', { 'accept-encoding': 'identity' }]] as const) {
  for (let i = 0; i < 200; i++) await one(h);
  const t = performance.now();
  for (let i = 0; i < 1000; i++) await one(h);
  console.log(name, ((performance.now() - t) / 1000).toFixed(3), 'ms/req sequential');
}
await s.close();
process.exit(0);
