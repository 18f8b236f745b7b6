import dns from 'node:dns/promises';
import os from 'node:os';
import mongoose from 'mongoose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationDto } from '@common/schemas/integration';
import { ConfigError, loadConfig } from '../../../core/config';
import { ZendeskApiError, ZendeskClient } from '../client';
import type { IntegrationDoc } from '../../models';
import { startTestServer } from '../../../test/harness';
import { CLIENT, connected, createIntegration, followCallback, simHost, sixMonthsAgo, startKit, waitForSync, type Kit } from './kit';
import { isInternalAddress } from '../../../core';
import { startRecordingHost, type RecordingHost } from './recordingHost';

let kit: Kit;
let foreign: RecordingHost;
beforeAll(async () => {
  foreign = await startRecordingHost();
  // The foreign host is allowed over http too: what stops the tokens is the binding, not the scheme.
  // Many authorizations in one file: the OAuth rate limit (not under test here) is raised.
  kit = await startKit({}, { RATE_LIMIT_OAUTH: '1000' }, [`127.0.0.1:${foreign.port}`]);
});
afterAll(async () => {
  await kit?.close();
  await foreign?.close();
});
beforeEach(async () => {
  await kit.s.reset();
  foreign.requests.length = 0;
});

const stored = async (id: string) =>
  (await kit.s.app.ctx.conn.collection('integrations').findOne({ _id: new mongoose.Types.ObjectId(id) })) as unknown as IntegrationDoc;
const setStored = (id: string, set: Record<string, unknown>, unset: Record<string, ''> = {}) =>
  kit.s.app.ctx.conn.collection('integrations').updateOne({ _id: new mongoose.Types.ObjectId(id) }, { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) });
const listed = async (id: string) => (await kit.s.http<IntegrationDto[]>('GET', '/api/integrations')).body.find((i) => i.id === id)!;
const configure = (integrationId: string, hostUrl: string, clientId = CLIENT.clientId) =>
  kit.s.http<{ authUrl: string; error: { code: string; message: string; fields?: unknown } }>('POST', '/api/integrations/zendesk/config', { body: { integrationId, clientId, clientSecret: CLIENT.clientSecret, hostUrl } });

/** Nothing that could carry a secret reached the foreign host. */
function expectForeignHostUntouched(tokens: string[]) {
  for (const r of foreign.requests) {
    expect(r.authorization).toBeNull();
    for (const t of tokens) expect(r.body).not.toContain(t);
  }
  expect(foreign.requests).toEqual([]);
}

async function syncedIntegration(): Promise<{ id: string; tokens: string[] }> {
  const zd = await connected(kit);
  const started = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
  expect(started.status).toBe(202);
  expect((await waitForSync(kit.s, zd.id)).errors).toEqual([]);
  const doc = await stored(zd.id);
  expect(doc.oauth.tokenOrigin).toBe(kit.sim.url);
  expect(doc.cursors.tickets).toBeTruthy();
  return { id: zd.id, tokens: [doc.oauth.accessToken!, doc.oauth.refreshToken!] };
}

describe('Zendesk secrets stay bound to their host', () => {
  it('a new Host URL discards tokens and cursors: pending again, sync asks to reconnect, the new host receives nothing', async () => {
    const { id, tokens } = await syncedIntegration();

    const cfg = await configure(id, foreign.url);
    expect(cfg.status, cfg.text).toBe(200);
    expect(cfg.body.authUrl.startsWith(`${foreign.url}/oauth/authorizations/new?`)).toBe(true);
    const doc = await stored(id);
    expect(doc.oauth).toMatchObject({ hostUrl: foreign.url, accessToken: null, refreshToken: null, tokenExpiresAt: null, tokenOrigin: null });
    expect(doc.cursors).toEqual({ tickets: null, users: null, organizations: null });
    expect(doc.config.lastCursor).toBeNull();
    expect(await listed(id)).toMatchObject({ status: 'pending', hasCredentials: false, config: { hostUrl: foreign.url, lastCursor: null } });

    const sync = await kit.s.http('POST', `/api/integrations/${id}/sync`, { body: {} });
    expect(sync.status).toBe(400);
    expect(sync.body.error.code).toBe('not_connected');
    expect(sync.body.error.message).toMatch(/reconnect/i);
    expectForeignHostUntouched(tokens);
  });

  it('a new client ID on the same host also needs a new authorization; the same host and client keep the tokens', async () => {
    const zd = await connected(kit);
    const before = await stored(zd.id);
    expect((await configure(zd.id, kit.sim.url)).status).toBe(200);
    expect((await stored(zd.id)).oauth.accessToken).toBe(before.oauth.accessToken);
    expect((await listed(zd.id)).status).toBe('active');

    expect((await configure(zd.id, kit.sim.url, 'another-client')).status).toBe(200);
    expect((await stored(zd.id)).oauth).toMatchObject({ clientId: 'another-client', accessToken: null, refreshToken: null, tokenOrigin: null });
    expect((await listed(zd.id)).status).toBe('pending');
  });

  it('tokens whose Host URL moved without a new authorization are never sent: sync answers reconnect_required', async () => {
    const { id, tokens } = await syncedIntegration();
    // As if the Host URL had been changed behind the service's back (an older release, a DB edit).
    await setStored(id, { 'oauth.hostUrl': foreign.url });
    const sync = await kit.s.http('POST', `/api/integrations/${id}/sync`, { body: {} });
    expect(sync.status).toBe(400);
    expect(sync.body.error.code).toBe('reconnect_required');
    expect(sync.body.error.message).toMatch(/reconnect/i);

    // Tokens stored before they carried their origin are not trusted either.
    await setStored(id, { 'oauth.hostUrl': kit.sim.url }, { 'oauth.tokenOrigin': '' });
    const legacy = await kit.s.http('POST', `/api/integrations/${id}/sync`, { body: {} });
    expect(legacy.body.error.code).toBe('reconnect_required');
    expectForeignHostUntouched(tokens);
  });

  it('a 401 after the Host URL moved mid-sync does not send the refresh token anywhere', async () => {
    const zd = await connected(kit);
    const { accessToken, refreshToken } = (await stored(zd.id)).oauth;
    const moved = new Promise<void>((resolve) => {
      const off = kit.s.app.ctx.events.on('records.upserted', () => {
        off();
        // After the first stored page: the Host URL moves and every access token stops working.
        void setStored(zd.id, { 'oauth.hostUrl': foreign.url }).then(() => {
          kit.sim.expireAccessTokens();
          resolve();
        });
      });
    });
    const tokensBefore = kit.sim.issuedTokens();
    const started = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    expect(started.status).toBe(202);
    await moved;
    const done = await waitForSync(kit.s, zd.id);
    expect(done.errors.join(' ')).toContain('401');
    // No refresh grant reached the simulator either (it would have issued a new access token).
    expect(kit.sim.issuedTokens()).toBe(0);
    expect(tokensBefore).toBeGreaterThan(0);
    expectForeignHostUntouched([accessToken!, refreshToken!]);
  });

  it('a sync running in another process when the Host URL changes saves none of its cursors', async () => {
    const zd = await connected(kit);
    const other = await startTestServer({ MONGODB_URI: kit.s.app.ctx.db.uri, ZENDESK_SCHEDULER_TICK_MS: '0', ZENDESK_HTTP_HOSTS: simHost(kit.sim) });
    try {
      const reconfigured = new Promise<void>((resolve) => {
        const off = other.app.ctx.events.on('records.upserted', () => {
          off();
          // The other process waits 2 s on Zendesk while this one moves the integration to another host.
          kit.sim.rateLimitNext(1, 2);
          void configure(zd.id, foreign.url).then((r) => {
            expect(r.status).toBe(200);
            resolve();
          });
        });
      });
      const started = await other.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
      expect(started.status).toBe(202);
      await reconfigured;
      const done = await waitForSync(other, zd.id);
      expect(done.lastSyncResults?.ticketsSynced).toBeGreaterThan(40);
      const doc = await stored(zd.id);
      expect(doc.cursors).toEqual({ tickets: null, users: null, organizations: null });
      expect(doc.config.lastCursor).toBeNull();
      expect(doc.oauth).toMatchObject({ hostUrl: foreign.url, accessToken: null, tokenOrigin: null });
      expectForeignHostUntouched([]);
    } finally {
      await other.close();
    }
  });

  it('the client refuses to send a token to any origin but the one that issued it', async () => {
    const allowed = [simHost(kit.sim), `127.0.0.1:${foreign.port}`];
    expect(() => new ZendeskClient({ baseUrl: foreign.url, accessToken: 'tok-123', tokenOrigin: kit.sim.url, allowed })).toThrow(ZendeskApiError);
    const client = new ZendeskClient({ baseUrl: kit.sim.url, accessToken: 'tok-123', tokenOrigin: kit.sim.url, allowed });
    await expect(client.get(`${foreign.url}/api/v2/ticket_fields.json`)).rejects.toThrow(/another host/);
    expectForeignHostUntouched(['tok-123']);
  });
});

describe('Host URL validation', () => {
  it.each([
    ['http://evil.example.com', /https:\/\/.*ZENDESK_HTTP_HOSTS/],
    ['http://127.0.0.1:1', /ZENDESK_HTTP_HOSTS/],
    ['ftp://acme.zendesk.com', /must start with https:\/\//],
    ['https://user:pw@acme.zendesk.com', /user name or password/],
    ['https://', /valid https:\/\//],
    ['javascript:alert(1)', /valid https:\/\//],
  ])('%s is refused with 400 naming the rule, and the stored integration is untouched', async (hostUrl, message) => {
    const zd = await connected(kit);
    const before = await stored(zd.id);
    const res = await configure(zd.id, hostUrl);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toEqual([{ path: 'hostUrl', message: expect.stringMatching(message) }]);
    expect((await stored(zd.id)).oauth).toEqual(before.oauth);
  });

  it('an internal address in any spelling is refused as every outbound address is (the one check of core/outbound)', async () => {
    const created = await createIntegration(kit.s);
    for (const hostUrl of ['https://127.0.0.1', 'https://localhost', 'https://[::ffff:7f00:1]', 'https://[::127.0.0.1]', 'https://[::ffff:0:7f00:1]', 'https://[64:ff9b::a00:1]', 'https://10.1.2.3', 'https://[fd00::1]', 'https://169.254.169.254']) {
      const res = await configure(created.id, hostUrl);
      expect(res.status, hostUrl).toBe(400);
      expect(res.body.error.fields, hostUrl).toEqual([{ path: 'hostUrl', message: expect.stringMatching(/non-public address .*refused unless allowed: allow .* under Settings › Outbound hosts/) }]);
    }
  });

  it('a name that resolves to a loopback address is refused when the token is asked for, and nothing is sent', async () => {
    const host = os.hostname();
    expect((await dns.lookup(host, { all: true })).some((a) => isInternalAddress(a.address)), `${host} resolves to loopback here`).toBe(true);
    const created = await createIntegration(kit.s);
    // Saved: a name is checked after DNS, when called.
    const cfg = await configure(created.id, `https://${host}:${foreign.port}`);
    expect(cfg.status, cfg.text).toBe(200);
    const state = new URL(cfg.body.authUrl).searchParams.get('state')!;
    const { message } = await followCallback(`${kit.s.url}/api/integrations/zendesk/callback?code=abc&state=${encodeURIComponent(state)}`);
    expect(message).toMatchObject({ success: false, error: expect.stringMatching(/resolves to a loopback.*\(loopback\)/) });
    expect(foreign.requests).toEqual([]);
  });

  it.each([
    ['acme', 'https://acme.zendesk.com'],
    ['acme.zendesk.com', 'https://acme.zendesk.com'],
    ['https://acme.zendesk.com/agent/', 'https://acme.zendesk.com'],
  ])('%s is accepted as %s', async (hostUrl, origin) => {
    const zd = await connected(kit);
    const res = await configure(zd.id, hostUrl);
    expect(res.status, res.text).toBe(200);
    expect(new URL(res.body.authUrl).origin).toBe(origin);
    expect((await stored(zd.id)).oauth.hostUrl).toBe(origin);
  });

  it('ZENDESK_HTTP_HOSTS is a validated host:port list', () => {
    expect(loadConfig({ ZENDESK_HTTP_HOSTS: '127.0.0.1:4010, LocalHost:80' }).ZENDESK_HTTP_HOSTS).toEqual(['127.0.0.1:4010', 'localhost:80']);
    expect(loadConfig({}).ZENDESK_HTTP_HOSTS).toEqual([]);
    expect(() => loadConfig({ ZENDESK_HTTP_HOSTS: 'http://127.0.0.1:4010' })).toThrow(ConfigError);
    expect(() => loadConfig({ ZENDESK_HTTP_HOSTS: 'localhost' })).toThrow(/ZENDESK_HTTP_HOSTS/);
  });
});
