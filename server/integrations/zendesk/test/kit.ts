import { expect } from 'vitest';
import type { IntegrationDto, OAuthCompleteMessage, SyncStatusDto } from '@common/schemas/integration';
import { eventually } from '../../../test/eventually';
import { startTestServer, type TestServer } from '../../../test/harness';
import type { Logger } from '../../../core';
import { DEFAULT_SIM_CLIENT, startZendeskSimulator, type SimulatorOptions, type ZendeskSimulator } from '../simulator/server';

export const CLIENT = DEFAULT_SIM_CLIENT;

export interface Kit {
  s: TestServer;
  sim: ZendeskSimulator;
  close(): Promise<void>;
}

/** The real server plus a small simulator (a few hundred tickets keep the offline DB fast). */
export async function startKit(simOpts: SimulatorOptions = {}, env: Record<string, string> = {}, moreHttpHosts: string[] = [], log?: Logger): Promise<Kit> {
  const sim = await startZendeskSimulator({ tickets: 120, users: 30, organizations: 5, perPage: 40, ...simOpts });
  // One server takes every OAuth round of a test file: far more than one admin's OAuth budget.
  const s = await startTestServer({ ZENDESK_SCHEDULER_TICK_MS: '0', RATE_LIMIT_OAUTH: '10000', ZENDESK_HTTP_HOSTS: [simHost(sim), ...moreHttpHosts].join(','), ...env }, log);
  return { s, sim, close: async () => Promise.all([s.close(), sim.close()]).then(() => undefined) };
}

/** The simulator speaks plain http: the server allows it for this host:port only (ZENDESK_HTTP_HOSTS). */
export const simHost = (sim: { port: number }) => `127.0.0.1:${sim.port}`;

export async function createIntegration(s: TestServer, name = 'Acme Support'): Promise<IntegrationDto> {
  const res = await s.http<IntegrationDto>('POST', '/api/integrations', { body: { name, description: 'Support desk', type: 'zendesk' } });
  expect(res.status).toBe(201);
  return res.body;
}

/** The config call, the simulator's consent page and decision, then our callback: no browser needed. */
export async function authorize(
  kit: Kit, integrationId: string, opts: { clientSecret?: string; decision?: 'allow' | 'deny' } = {},
): Promise<{ message: OAuthCompleteMessage; html: string; callbackUrl: string; authUrl: string }> {
  const cfg = await kit.s.http<{ authUrl: string }>('POST', '/api/integrations/zendesk/config', {
    body: { integrationId, clientId: CLIENT.clientId, clientSecret: opts.clientSecret ?? CLIENT.clientSecret, hostUrl: kit.sim.url },
  });
  expect(cfg.status, cfg.text).toBe(200);
  const authUrl = new URL(cfg.body.authUrl);
  const consent = await fetch(authUrl);
  expect(consent.status).toBe(200);
  expect(await consent.text()).toContain('Allow');
  const q = authUrl.searchParams;
  const form = new URLSearchParams({ client_id: q.get('client_id')!, redirect_uri: q.get('redirect_uri')!, scope: q.get('scope')!, state: q.get('state')!, decision: opts.decision ?? 'allow' });
  const decided = await fetch(`${kit.sim.url}/oauth/authorizations`, { method: 'POST', body: form, redirect: 'manual' });
  expect(decided.status).toBe(302);
  const callbackUrl = decided.headers.get('location')!;
  const { message, html } = await followCallback(callbackUrl);
  return { message, html, callbackUrl, authUrl: cfg.body.authUrl };
}

export async function followCallback(callbackUrl: string): Promise<{ message: OAuthCompleteMessage; html: string }> {
  const res = await fetch(callbackUrl);
  expect(res.status).toBe(200);
  const html = await res.text();
  const m = /var msg = (\{.*?\});/.exec(html);
  expect(m).not.toBeNull();
  return { message: JSON.parse(m![1]) as OAuthCompleteMessage, html };
}

export async function connected(kit: Kit, name?: string): Promise<IntegrationDto> {
  const integration = await createIntegration(kit.s, name);
  const { message } = await authorize(kit, integration.id);
  expect(message).toMatchObject({ type: 'OAUTH_COMPLETE', success: true, error: null, integrationId: integration.id });
  return integration;
}

/** Polls sync-status until the sync stops (what the console does as a fallback). */
export async function waitForSync(s: TestServer, id: string, timeoutMs = 25_000): Promise<SyncStatusDto> {
  return eventually(async () => {
    const res = await s.http<SyncStatusDto>('GET', `/api/integrations/${id}/sync-status`);
    expect(res.status).toBe(200);
    if (res.body.isRunning) throw new Error(`sync still running: ${JSON.stringify(res.body)}`);
    return res.body;
  }, { timeout: timeoutMs, interval: 150 });
}

/** Every secret the tests hand out, to check no response carries one. */
export function expectNoSecrets(text: string, kit: Kit, extra: string[] = []) {
  for (const secret of [CLIENT.clientSecret, ...extra]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/accessToken|refreshToken|clientSecret|access_token|refresh_token/);
}

export const sixMonthsAgo = () => {
  const d = new Date();
  d.setMonth(d.getMonth() - 6);
  return Math.floor(d.getTime() / 1000);
};
