import { about, activity } from '../../core';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { CreateIntegration, IntegrationSettings, StartSync, ZendeskOAuthConfig } from '@common/schemas/integration';
import { validate, canonicalParams } from '../../core';
import { ObjectIdParam } from '@common/ids';
import { resourceRouter, rateLimitsHandle } from '../../access';
import { callbackPage, serverOrigin } from './oauth';
import type { ZendeskRuntime } from './runtime';
import {
  completeOAuth, configureOAuth, createIntegration, deleteIntegration, listIntegrations, recordsSummary, syncStatus, updateSettings,
} from './service';
import { beginSync } from './sync';

/** What Zendesk may put on the redirect back to us; anything else is ignored. */
const CallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});

/** /api/integrations: admin-only, except the OAuth callback Zendesk redirects the popup to. */
export function integrationsRouter(rt: ZendeskRuntime): Router {
  const { router, auth, adminJson } = resourceRouter(rt.app);
  const integrationId = canonicalParams({ id: ObjectIdParam }, 'Integration');
  const oauthLimit = async (c: Context, next: Next) => {
    await rateLimitsHandle.of(rt.app).oauth.consume(c, c.ip);
    return next();
  };

  router.get('/integrations', auth.admin(), about({ summary: 'List integrations', answer: 'Integration[]' }), async (c) => {
    c.body = await listIntegrations(rt);
  });

  router.post('/integrations', auth.admin(), about({ summary: 'Create an integration', answer: 'Integration', status: 201, activity: activity('integration.created', 'integration', 'created integration', 'answer') }), adminJson(), validate({ body: CreateIntegration }, async (c, { body }) => {
    c.status = 201;
    c.body = await createIntegration(rt, { name: body.name, description: body.description ?? '', type: body.type });
  }));

  router.post('/integrations/zendesk/config', auth.admin(), about({ summary: 'Save a Zendesk integration\'s OAuth credentials', answer: '{authUrl}', activity: activity('integration.configured', 'integration', 'configured OAuth of integration', 'body:integrationId') }), oauthLimit, adminJson(), validate({ body: ZendeskOAuthConfig }, async (c, { body }) => {
    c.body = { authUrl: await configureOAuth(rt, body, c) };
  }));

  router.get('/integrations/zendesk/callback', auth.public(), about({ summary: 'Zendesk\'s OAuth redirect back to LiveDash', answer: 'An HTML page that returns to the console' }), oauthLimit, validate({ query: CallbackQuery.loose() }, async (c, { query }) => {
    const result = await completeOAuth(rt, query);
    c.set('Cache-Control', 'no-store');
    c.set('Referrer-Policy', 'no-referrer');
    // The popup came back from Zendesk's origin; it must keep its opener to report the result.
    c.set('Cross-Origin-Opener-Policy', 'unsafe-none');
    c.type = 'html';
    c.body = callbackPage(serverOrigin(rt.app, c), result, c.state.cspNonce as string);
  }));

  router.delete('/integrations/:id', auth.admin(), about({ summary: 'Delete an integration with its data source and records', answer: '{success: true}', activity: activity('integration.deleted', 'integration', 'deleted integration', 'param:id') }), integrationId, async (c) => {
    await deleteIntegration(rt, c.params.id);
    c.body = { success: true };
  });

  router.post('/integrations/:id/sync', auth.admin(), about({ summary: 'Start a sync (startDate in unix seconds for a first sync)', answer: '{status}', status: 202, activity: activity('sync.started', 'integration', 'started a sync of integration', 'param:id') }), integrationId, adminJson(), validate({ body: StartSync }, async (c, { body }) => {
    const { response } = await beginSync(rt, c.params.id, body.startDate);
    c.status = 202;
    c.body = response;
  }));

  router.get('/integrations/:id/sync-status', auth.admin(), about({ summary: 'A sync\'s progress', answer: '{isRunning, progress, ticketsProcessed, usersProcessed, lastSyncResults}' }), integrationId, async (c) => {
    c.body = await syncStatus(rt, c.params.id);
  });

  router.get('/integrations/:id/records', auth.admin(), about({ summary: 'Totals per entity kind of an integration', answer: '{totalTickets, totalUsers, totalOrganizations, totalCustomStatuses}' }), integrationId, async (c) => {
    c.body = await recordsSummary(rt, c.params.id);
  });

  router.put('/integrations/:id/settings', auth.admin(), about({ summary: 'Auto sync on or off and its interval', answer: 'Integration', activity: activity('integration.updated', 'integration', 'updated settings of integration', 'param:id') }), integrationId, adminJson(), validate({ body: IntegrationSettings }, async (c, { body }) => {
    c.body = await updateSettings(rt, c.params.id, body);
  }));

  return router;
}
