import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationDto } from '@common/schemas/integration';
import { authorize, CLIENT, connected, createIntegration, expectNoSecrets, followCallback, startKit, type Kit } from './kit';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(async () => kit?.close());
beforeEach(async () => kit.s.reset());

const getIntegration = async (id: string) => (await kit.s.http<IntegrationDto[]>('GET', '/api/integrations')).body.find((i) => i.id === id);

describe('Zendesk OAuth against the simulator', () => {
  it('creates a pending integration, then authorizes it: tokens stored server-side, status active', async () => {
    const created = await createIntegration(kit.s);
    expect(created).toMatchObject({ type: 'zendesk', status: 'pending', hasCredentials: false, config: { autoSync: false, syncInterval: 30, lastCursor: null } });

    const { message, html, authUrl } = await authorize(kit, created.id);
    const u = new URL(authUrl);
    expect(u.origin + u.pathname).toBe(`${kit.sim.url}/oauth/authorizations/new`);
    expect(u.searchParams.get('response_type')).toBe('code');
    expect(u.searchParams.get('redirect_uri')).toBe(`${kit.s.url}/api/integrations/zendesk/callback`);
    expect(u.searchParams.get('state')!.length).toBeGreaterThanOrEqual(40);
    expect(message).toEqual({ type: 'OAUTH_COMPLETE', success: true, error: null, integrationId: created.id });
    expect(html).toContain(`/admin?oauth=success&provider=zendesk&integrationId=${created.id}`);
    expect(html).toContain(`postMessage(msg, "${kit.s.url}")`);
    expect(html).toContain('1500');

    const after = await getIntegration(created.id);
    expect(after).toMatchObject({ status: 'active', hasCredentials: true, config: { domain: new URL(kit.sim.url).host, hostUrl: kit.sim.url } });
    const stored = await kit.s.app.ctx.conn.collection('integrations').findOne({});
    const token = (stored as unknown as { oauth: { accessToken: string; refreshToken: string } }).oauth;
    expect(token.accessToken).toMatch(/^[0-9a-f]{64}$/);
    const list = await kit.s.http('GET', '/api/integrations');
    expectNoSecrets(list.text, kit, [token.accessToken, token.refreshToken]);
    expectNoSecrets(html, kit, [token.accessToken, token.refreshToken]);
  });

  it('Deny returns access_denied to the console and leaves the integration pending', async () => {
    const created = await createIntegration(kit.s);
    const { message, html } = await authorize(kit, created.id, { decision: 'deny' });
    expect(message).toEqual({ type: 'OAUTH_COMPLETE', success: false, error: 'access_denied', integrationId: created.id });
    expect(html).toContain(`/admin?oauth=error&provider=zendesk&integrationId=${created.id}&error=access_denied`);
    expect((await getIntegration(created.id))?.status).toBe('pending');
  });

  it('a wrong client secret fails the token exchange: status error, the secret is never echoed', async () => {
    const created = await createIntegration(kit.s);
    const { message } = await authorize(kit, created.id, { clientSecret: 'definitely-wrong-secret' });
    expect(message.success).toBe(false);
    expect(message.error).toContain('invalid_client');
    const after = await getIntegration(created.id);
    expect(after).toMatchObject({ status: 'error', hasCredentials: false });
    const list = await kit.s.http('GET', '/api/integrations');
    expect(list.text).not.toContain('definitely-wrong-secret');
  });

  it('a reused callback (same code and state) is refused', async () => {
    const created = await createIntegration(kit.s);
    const first = await authorize(kit, created.id);
    expect(first.message.success).toBe(true);
    const again = await followCallback(first.callbackUrl);
    expect(again.message).toMatchObject({ success: false, error: 'Invalid or expired OAuth state' });
  });

  it('a reused code with a fresh state is refused by the token endpoint', async () => {
    const created = await createIntegration(kit.s);
    const first = await authorize(kit, created.id);
    const code = new URL(first.callbackUrl).searchParams.get('code')!;
    const cfg = await kit.s.http<{ authUrl: string }>('POST', '/api/integrations/zendesk/config', {
      body: { integrationId: created.id, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, hostUrl: kit.sim.url },
    });
    const state = new URL(cfg.body.authUrl).searchParams.get('state')!;
    const { message } = await followCallback(`${kit.s.url}/api/integrations/zendesk/callback?code=${code}&state=${encodeURIComponent(state)}`);
    expect(message.success).toBe(false);
    expect(message.error).toContain('invalid_grant');
  });

  it('a forged state is refused without touching any integration', async () => {
    const created = await createIntegration(kit.s);
    await kit.s.http('POST', '/api/integrations/zendesk/config', {
      body: { integrationId: created.id, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, hostUrl: kit.sim.url },
    });
    const { message, html } = await followCallback(`${kit.s.url}/api/integrations/zendesk/callback?code=abc&state=forged-state-value`);
    expect(message).toEqual({ type: 'OAUTH_COMPLETE', success: false, error: 'Invalid or expired OAuth state', integrationId: null });
    expect(html).toContain('oauth=error');
    expect((await getIntegration(created.id))?.status).toBe('pending');
  });

  it('an expired state is refused', async () => {
    const created = await createIntegration(kit.s);
    const cfg = await kit.s.http<{ authUrl: string }>('POST', '/api/integrations/zendesk/config', {
      body: { integrationId: created.id, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, hostUrl: kit.sim.url },
    });
    await kit.s.app.ctx.conn.collection('integrations').updateOne({}, { $set: { 'oauth.stateExpiresAt': new Date(Date.now() - 1000) } });
    const state = new URL(cfg.body.authUrl).searchParams.get('state')!;
    const { message } = await followCallback(`${kit.s.url}/api/integrations/zendesk/callback?code=abc&state=${encodeURIComponent(state)}`);
    expect(message.error).toBe('Invalid or expired OAuth state');
  });

  it('validates the config payload with its documented messages and never echoes the secret', async () => {
    const created = await createIntegration(kit.s);
    const res = await kit.s.http('POST', '/api/integrations/zendesk/config', { body: { integrationId: created.id, clientId: '', clientSecret: '', hostUrl: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('Client ID is required');
    expect(res.body.error.message).toContain('Client Secret is required');
    expect(res.body.error.message).toContain('Host URL is required');
    const ok = await kit.s.http('POST', '/api/integrations/zendesk/config', {
      body: { integrationId: created.id, clientId: 'x', clientSecret: 'very-secret-value', hostUrl: 'acme' },
    });
    expect(ok.body.authUrl).toMatch(/^https:\/\/acme\.zendesk\.com\/oauth\/authorizations\/new\?/);
    expect(ok.text).not.toContain('very-secret-value');
  });

  it('the simulator refuses unknown clients on its consent page', async () => {
    const res = await fetch(`${kit.sim.url}/oauth/authorizations/new?response_type=code&client_id=nope&redirect_uri=http://x/cb&state=s`);
    expect(res.status).toBe(400);
    await connected(kit);
  });
});
