import Router from '@koa/router';
import { CreateIntegration, IntegrationSettings, StartSync, ZendeskOAuthConfig } from '@common/schemas/integration';
import { parse } from '../../middleware/validate';
import { callbackPage, serverOrigin } from './oauth';
import type { ZendeskRuntime } from './runtime';
import {
  completeOAuth, configureOAuth, createIntegration, deleteIntegration, listIntegrations, recordsSummary, syncStatus, updateSettings,
} from './service';
import { beginSync } from './sync';

const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);

/** /api/integrations (spec 7). The admin bearer check is app-wide; only the OAuth callback is exempt. */
export function integrationsRouter(rt: ZendeskRuntime): Router {
  const router = new Router({ prefix: '/integrations' });

  router.get('/', async (c) => {
    c.body = await listIntegrations(rt);
  });

  router.post('/', async (c) => {
    const input = parse(CreateIntegration, c.request.body ?? {});
    c.status = 201;
    c.body = await createIntegration(rt, { name: input.name, description: input.description ?? '', type: input.type });
  });

  router.post('/zendesk/config', async (c) => {
    const input = parse(ZendeskOAuthConfig, c.request.body ?? {});
    c.body = { authUrl: await configureOAuth(rt, input, c) };
  });

  router.get('/zendesk/callback', async (c) => {
    const q = c.query;
    const result = await completeOAuth(rt, { code: str(q.code), state: str(q.state), error: str(q.error), error_description: str(q.error_description) });
    c.set('Cache-Control', 'no-store');
    c.set('Referrer-Policy', 'no-referrer');
    c.type = 'html';
    c.body = callbackPage(serverOrigin(rt.app, c), result);
  });

  router.delete('/:id', async (c) => {
    await deleteIntegration(rt, c.params.id);
    c.body = { success: true };
  });

  router.post('/:id/sync', async (c) => {
    const input = parse(StartSync, c.request.body ?? {});
    const { response } = await beginSync(rt, c.params.id, input.startDate);
    c.status = 202;
    c.body = response;
  });

  router.get('/:id/sync-status', async (c) => {
    c.body = await syncStatus(rt, c.params.id);
  });

  router.get('/:id/records', async (c) => {
    c.body = await recordsSummary(rt, c.params.id);
  });

  router.put('/:id/settings', async (c) => {
    const input = parse(IntegrationSettings, c.request.body ?? {});
    c.body = await updateSettings(rt, c.params.id, input);
  });

  return router;
}
