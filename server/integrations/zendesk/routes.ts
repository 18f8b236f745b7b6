import { about, activity } from '../../core';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { ZendeskOAuthConfig } from '@common/schemas/integration';
import { validate } from '../../core';
import { askerOfRequest, refuseLimited, resourceRouter, rateLimitsHandle } from '../../access';
import { callbackPage, serverOrigin } from './oauth';
import type { IntegrationsRuntime } from '../runtime';
import { completeOAuth, configureOAuth } from './service';

/** What Zendesk may put on the redirect back to us; anything else is ignored. */
const CallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
});

/** Zendesk's OAuth: the admin saves the client and gets the authorization URL; the callback Zendesk redirects the popup to is public. */
export function zendeskRouter(rt: IntegrationsRuntime): Router {
  const { router, auth, adminJson } = resourceRouter(rt.app);
  const oauthLimit = async (c: Context, next: Next) => {
    await rateLimitsHandle.of(rt.app).oauth.consume(c, c.ip);
    return next();
  };

  const everyDashboard = async (c: Context, next: Next) => {
    refuseLimited(askerOfRequest(c), 'manage integrations (each one makes, fills and deletes a data source of its own)');
    return next();
  };

  router.post('/integrations/zendesk/config', auth.admin(), about({ summary: 'Save a Zendesk integration\'s OAuth credentials', answer: '{authUrl}', activity: activity('integration.configured', 'integration', 'configured OAuth of integration', 'body:integrationId') }), everyDashboard, oauthLimit, adminJson(), validate({ body: ZendeskOAuthConfig }, async (c, { body }) => {
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

  return router;
}
