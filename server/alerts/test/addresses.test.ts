import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildSource, type BuiltSource } from '../../test/factories';
import { eventually } from '../../test/eventually';
import { startReceiver, type TestReceiver } from '../../test/receiver';

/*
 * Channel URLs that point inside, in every spelling we know of: refused when saved (400 naming the
 * channel), and refused again when sent — for a URL stored under an older, weaker rule — before any
 * connection is made (the receiver on loopback, at the port the URLs name, counts connections).
 * Only 127.0.0.1:1 is listed: a listed host:port is let through in every spelling that is it.
 */

let s: TestServer;
let rx: TestReceiver;
let ds: BuiltSource;
const LISTED = '127.0.0.1:1';

/** Every spelling, with the port of the receiver where a port is given (so a connection would reach it). */
const spellings = (port: number): string[] => [
  // IPv4 loopback, as numbers in every base and shape the URL parser reads.
  `https://127.0.0.1:${port}/x`, `https://127.1:${port}/x`, `https://0x7f.1:${port}/x`, `https://0x7f000001:${port}/x`, `https://2130706433:${port}/x`,
  `https://0177.0.0.1:${port}/x`, `https://017700000001:${port}/x`, `https://127.0.0.1.:${port}/x`, `https://127.255.255.254:${port}/x`,
  `https://%31%32%37.0.0.1:${port}/x`, `https://①②⑦.0.0.1:${port}/x`,
  // IPv6 loopback, and IPv4 loopback inside IPv6: compatible, mapped (dotted and hex), translated, NAT64, 6to4.
  `https://[::1]:${port}/x`, `https://[0:0:0:0:0:0:0:1]:${port}/x`, `https://[::127.0.0.1]:${port}/x`, `https://[::7f00:1]:${port}/x`,
  `https://[::ffff:127.0.0.1]:${port}/x`, `https://[::ffff:7f00:1]:${port}/x`, `https://[0:0:0:0:0:ffff:127.0.0.1]:${port}/x`, `https://[::FFFF:7F00:0001]:${port}/x`,
  `https://[::ffff:0:7f00:1]:${port}/x`, `https://[::ffff:0:127.0.0.1]:${port}/x`, `https://[64:ff9b::127.0.0.1]:${port}/x`, `https://[64:ff9b::7f00:1]:${port}/x`,
  `https://[64:ff9b:1::a00:1]:${port}/x`, `https://[2002:7f00:1::1]:${port}/x`, `https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]:${port}/x`,
  // Unspecified (this host).
  `https://0.0.0.0:${port}/x`, `https://0:${port}/x`, `https://[::]:${port}/x`,
  // Private, link-local (the cloud metadata service), unique-local, shared address space — also inside IPv6.
  'https://10.0.0.1/x', 'https://172.16.0.1/x', 'https://192.168.1.1/x', 'https://[::ffff:10.0.0.1]/x', 'https://[2002:c0a8:101::1]/x',
  'https://169.254.169.254/latest/meta-data', 'https://[::ffff:a9fe:a9fe]/x', 'https://[fe80::1]/x', 'https://[fd00::1]/x', 'https://[fc00::1]/x',
  'https://100.64.0.1/x', 'https://224.0.0.1/x', 'https://255.255.255.255/x',
  // Names that are this machine whatever DNS says.
  `https://localhost:${port}/x`, `https://LOCALHOST.:${port}/x`, `https://api.localhost:${port}/x`, `https://ip6-localhost:${port}/x`,
];

beforeAll(async () => {
  rx = await startReceiver();
  s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: LISTED });
  ds = await buildSource(s, { name: 'Orders', primaryKey: 'id', records: [{ id: 'a', v: 1 }] });
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
});

const rule = (channels: unknown[]) => ({ name: 'Inside', dataSourceId: ds.id, condition: { operator: 'gt', value: 1e9 }, channels });

describe('channel URLs pointing inside, in every spelling', () => {
  it('are refused when saved, naming the channel, as webhook, Slack and Teams URLs alike', async () => {
    const port = Number(rx.hostPort.split(':')[1]);
    const list = spellings(port);
    expect(list.length).toBeGreaterThanOrEqual(40);
    const accepted: string[] = [];
    for (const [i, url] of list.entries()) {
      const type = (['webhook', 'slack', 'teams'] as const)[i % 3];
      const res = await s.http('POST', '/api/admin/alerts', { body: rule([{ type: 'slack', url: 'https://hooks.slack.com/services/T/B/X' }, { type, url }]) });
      if (res.status !== 400 || res.body.error.fields?.[0]?.path !== 'channels.1.url') accepted.push(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(accepted).toEqual([]);
    // A listed host:port is the one way in, in any spelling of it (the URL parser reads 0x7f.1 as 127.0.0.1).
    for (const url of [`http://${LISTED}/x`, 'https://0x7f.1:1/x']) expect((await s.http('POST', '/api/admin/alerts', { body: rule([{ type: 'webhook', url }]) })).status, url).toBe(201);
  });

  it('are refused again when sent, before any connection, for URLs stored under an older rule', async () => {
    const port = Number(rx.hostPort.split(':')[1]);
    const created = await s.http('POST', '/api/admin/alerts', { body: rule([{ type: 'webhook', url: 'https://hooks.example.com/x' }]) });
    expect(created.status).toBe(201);
    const list = spellings(port);
    // As if saved before this check existed: straight into the database.
    const channels = list.map((url, i) => ({ id: `c${String(i).padStart(3, '0')}`, type: 'webhook', url, secret: 'whsec_test' }));
    await s.app.ctx.conn.models.Alert.updateOne({ _id: created.body.id }, { $set: { channels } });
    const before = rx.connections;
    expect((await s.http('POST', `/api/admin/alerts/${created.body.id}/test`)).status).toBe(202);
    const history = await eventually(async () => {
      const h = (await s.http('GET', `/api/admin/alerts/${created.body.id}/history`)).body;
      return h.deliveries.length === list.length && h.deliveries.every((d: { status: string }) => d.status !== 'pending') && h;
    }, { timeout: 20_000 });
    const byChannel = new Map<string, { status: string; attempts: { message: string }[] }>(history.deliveries.map((d: { channelId: string }) => [d.channelId, d]));
    const notRefused = channels.filter((c) => {
      const d = byChannel.get(c.id)!;
      return d.status !== 'failed' || d.attempts.length !== 1 || !/^refused: .*(loopback|non-public)/.test(d.attempts[0].message);
    }).map((c) => `${c.url}: ${JSON.stringify(byChannel.get(c.id))}`);
    expect(notRefused).toEqual([]);
    expect(rx.connections, 'connections the receiver got').toBe(before);
  });
});
