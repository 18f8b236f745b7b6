import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_CLIENT, startZendeskSimulator, type ZendeskSimulator } from '../simulator/server';

let sim: ZendeskSimulator;
let expiring: ZendeskSimulator;
beforeAll(async () => {
  sim = await startZendeskSimulator({ tickets: 60, users: 10, organizations: 3, perPage: 25, clients: [{ ...DEFAULT_SIM_CLIENT, redirectUris: ['http://app.test/cb'] }] });
  expiring = await startZendeskSimulator({ tickets: 5, users: 2, organizations: 1, codeTtlSeconds: 0 });
});
afterAll(async () => Promise.all([sim?.close(), expiring?.close()]));

async function code(target: ZendeskSimulator, redirectUri: string): Promise<string> {
  const form = new URLSearchParams({ client_id: DEFAULT_SIM_CLIENT.clientId, redirect_uri: redirectUri, scope: 'read', state: 's1', decision: 'allow' });
  const res = await fetch(`${target.url}/oauth/authorizations`, { method: 'POST', body: form, redirect: 'manual' });
  const loc = new URL(res.headers.get('location')!);
  expect(loc.searchParams.get('state')).toBe('s1');
  return loc.searchParams.get('code')!;
}

const token = (target: ZendeskSimulator, body: Record<string, string>) =>
  fetch(`${target.url}/oauth/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const grant = (c: string, redirectUri = 'http://app.test/cb', secret = DEFAULT_SIM_CLIENT.clientSecret) => ({
  grant_type: 'authorization_code', code: c, client_id: DEFAULT_SIM_CLIENT.clientId, client_secret: secret, redirect_uri: redirectUri, scope: 'read',
});

describe('Zendesk simulator', () => {
  it('consent page checks the registered redirect URI', async () => {
    const ok = await fetch(`${sim.url}/oauth/authorizations/new?response_type=code&client_id=livedash&redirect_uri=${encodeURIComponent('http://app.test/cb')}&state=x`);
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain('>Allow<');
    expect(html).toContain('>Deny<');
    const bad = await fetch(`${sim.url}/oauth/authorizations/new?response_type=code&client_id=livedash&redirect_uri=${encodeURIComponent('http://evil.test/cb')}&state=x`);
    expect(bad.status).toBe(400);
  });

  it('token endpoint: checks secret and redirect URI, codes work once and expire', async () => {
    expect((await token(sim, grant(await code(sim, 'http://app.test/cb'), 'http://app.test/cb', 'nope'))).status).toBe(401);
    expect((await (await token(sim, grant(await code(sim, 'http://app.test/cb'), 'http://other.test/cb'))).json()).error).toBe('invalid_grant');
    const c = await code(sim, 'http://app.test/cb');
    const first = await token(sim, grant(c));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ token_type: 'bearer', scope: 'read' });
    expect((await (await token(sim, grant(c))).json()).error).toBe('invalid_grant');
    const late = await code(expiring, 'http://x.test/cb');
    await new Promise((r) => setTimeout(r, 20));
    expect((await (await token(expiring, grant(late, 'http://x.test/cb'))).json()).error).toBe('invalid_grant');
  });

  it('data endpoints need a bearer token and follow the documented export shapes', async () => {
    expect((await fetch(`${sim.url}/api/v2/ticket_fields.json`)).status).toBe(401);
    const { access_token } = (await (await token(sim, grant(await code(sim, 'http://app.test/cb')))).json()) as { access_token: string };
    const get = async (p: string) => (await fetch(`${sim.url}${p}`, { headers: { authorization: `Bearer ${access_token}` } })).json();
    const first = await get('/api/v2/incremental/tickets/cursor.json?start_time=0');
    expect(first.tickets).toHaveLength(25);
    expect(first).toMatchObject({ end_of_stream: false, before_cursor: null });
    expect(first.after_url).toBe(`${sim.url}/api/v2/incremental/tickets/cursor.json?cursor=${first.after_cursor}`);
    expect(first.tickets[0]).not.toHaveProperty('seq');
    const seen = new Set<number>(first.tickets.map((t: { id: number }) => t.id));
    let page = first;
    while (!page.end_of_stream) {
      page = await get(`/api/v2/incremental/tickets/cursor.json?cursor=${page.after_cursor}`);
      for (const t of page.tickets) seen.add(t.id);
    }
    expect(seen.size).toBe(60);
    sim.data.deleteTicket(1);
    const tail = await get(`/api/v2/incremental/tickets/cursor.json?cursor=${page.after_cursor}`);
    expect(tail.tickets).toEqual([expect.objectContaining({ id: 1, status: 'deleted' })]);
    expect(tail.end_of_stream).toBe(true);
    const orgs = await get('/api/v2/incremental/organizations.json?start_time=0');
    expect(orgs).toMatchObject({ count: 3, end_of_stream: true });
    expect(typeof orgs.end_time).toBe('number');
    expect((await get('/api/v2/custom_statuses.json')).custom_statuses.length).toBeGreaterThan(4);
    sim.rateLimitNext(1, 7);
    const limited = await fetch(`${sim.url}/api/v2/ticket_fields.json`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
  });
});
