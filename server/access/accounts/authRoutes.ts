import type Router from '@koa/router';
import type { Context } from 'koa';
import { AcceptInvite, CreateApiToken, Login, Setup, UpdateMe, type SetupStateDto } from '@common/schemas/auth';
import type { AppContext } from '../../core';
import { jsonBody, validate } from '../../core';
import { principalOf } from '../guards';
import { createApiToken, listApiTokens, revokeAllApiTokens, revokeApiToken } from './apiTokens';
import {
  acceptInvite, describeInvitation, endAllSessions, listSessions, me, setupNeeded, setupFirstAdmin, signIn, signOut, updateMe,
} from './signIn';
import { resourceRouter } from '../resourceRouter';

/** Sign-in forms are small. */
const formJson = () => jsonBody({ limit: 16 * 1024 });
const who = (ctx: Context) => principalOf(ctx)!;

/**
 * People signing in: first-admin setup, sign-in and out, invitations, one's own account, sessions
 * and personal API tokens, under /api/auth.
 */
export function authRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const noStore = (ctx: Context) => ctx.set('Cache-Control', 'no-store');

  router.get('/auth/setup', auth.public(), async (ctx) => {
    const body: SetupStateDto = { needed: await setupNeeded(app), adminTokenEnabled: !app.config.ADMIN_TOKEN_DISABLED };
    ctx.body = body;
  });
  router.post('/auth/setup', auth.public(), formJson(), validate({ body: Setup }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.status = 201;
    ctx.body = await setupFirstAdmin(app, ctx, body);
  }));
  router.post('/auth/login', auth.public(), formJson(), validate({ body: Login }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.body = await signIn(app, ctx, body);
  }));
  router.post('/auth/logout', auth.viewer(), async (ctx) => {
    await signOut(app, ctx, who(ctx));
    ctx.body = { success: true };
  });
  router.get('/auth/invite/:token', auth.public(), async (ctx) => {
    noStore(ctx);
    ctx.body = await describeInvitation(app, ctx.params.token);
  });
  router.post('/auth/accept-invite', auth.public(), formJson(), validate({ body: AcceptInvite }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.body = await acceptInvite(app, ctx, body);
  }));

  router.get('/auth/me', auth.viewer(), async (ctx) => {
    noStore(ctx);
    ctx.body = await me(app, who(ctx));
  });
  router.patch('/auth/me', auth.viewer(), formJson(), validate({ body: UpdateMe }, async (ctx, { body }) => {
    ctx.body = await updateMe(app, ctx, who(ctx), body);
  }));
  router.get('/auth/sessions', auth.viewer(), async (ctx) => {
    ctx.body = await listSessions(app, who(ctx));
  });
  router.delete('/auth/sessions', auth.viewer(), async (ctx) => {
    await endAllSessions(app, ctx, who(ctx));
    ctx.body = { success: true };
  });

  router.get('/auth/tokens', auth.viewer(), async (ctx) => {
    ctx.body = await listApiTokens(app, who(ctx));
  });
  router.post('/auth/tokens', auth.viewer(), adminJson(), validate({ body: CreateApiToken }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.status = 201;
    ctx.body = await createApiToken(app, who(ctx), body);
  }));
  router.delete('/auth/tokens', auth.viewer(), async (ctx) => {
    ctx.body = await revokeAllApiTokens(app, who(ctx));
  });
  router.delete('/auth/tokens/:id', auth.viewer(), async (ctx) => {
    await revokeApiToken(app, who(ctx), ctx.params.id);
    ctx.body = { success: true };
  });
  return router;
}
