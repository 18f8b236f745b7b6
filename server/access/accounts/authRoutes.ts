import type Router from '@koa/router';
import type { Context } from 'koa';
import { AcceptInvite, CreateApiToken, Login, Setup, UpdateMe, type SetupStateDto } from '@common/schemas/auth';
import type { AppContext } from '../../core';
import { about, jsonBody, validate } from '../../core';
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

  router.get('/auth/setup', auth.public(), about({ summary: 'Whether the first admin still has to be set up, and whether the admin token is enabled', answer: 'SetupState' }), async (ctx) => {
    const body: SetupStateDto = { needed: await setupNeeded(app), adminTokenEnabled: !app.config.ADMIN_TOKEN_DISABLED };
    ctx.body = body;
  });
  router.post('/auth/setup', auth.public(), about({ summary: 'Set up the first admin with the admin token, and sign them in (sets the session cookie)', answer: 'Me', status: 201 }), formJson(), validate({ body: Setup }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.status = 201;
    ctx.body = await setupFirstAdmin(app, ctx, body);
  }));
  router.post('/auth/login', auth.public(), about({ summary: 'Sign in with email and password (sets the session cookie)', answer: 'Me' }), formJson(), validate({ body: Login }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.body = await signIn(app, ctx, body);
  }));
  router.post('/auth/logout', auth.viewer(), about({ summary: 'Sign out: end this session and clear its cookie', answer: '{success: true}' }), async (ctx) => {
    await signOut(app, ctx, who(ctx));
    ctx.body = { success: true };
  });
  router.get('/auth/invite/:token', auth.public(), about({ summary: 'What an invitation or reset link is for (email, name, kind), before its form is filled in', answer: 'Invitation' }), async (ctx) => {
    noStore(ctx);
    ctx.body = await describeInvitation(app, ctx.params.token);
  });
  router.post('/auth/accept-invite', auth.public(), about({ summary: 'Accept an invitation or reset link: set a name and password, and sign in', answer: 'Me' }), formJson(), validate({ body: AcceptInvite }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.body = await acceptInvite(app, ctx, body);
  }));

  router.get('/auth/me', auth.viewer(), about({ summary: 'The signed-in person: name, email, role and dashboard limits', answer: 'Me' }), async (ctx) => {
    noStore(ctx);
    ctx.body = await me(app, who(ctx));
  });
  router.patch('/auth/me', auth.viewer(), about({ summary: 'Change one\'s own name or password (a new password ends the other sessions)', answer: 'Me' }), formJson(), validate({ body: UpdateMe }, async (ctx, { body }) => {
    ctx.body = await updateMe(app, ctx, who(ctx), body);
  }));
  router.get('/auth/sessions', auth.viewer(), about({ summary: 'One\'s own signed-in sessions', answer: 'Session[]' }), async (ctx) => {
    ctx.body = await listSessions(app, who(ctx));
  });
  router.delete('/auth/sessions', auth.viewer(), about({ summary: 'Sign out everywhere: end all of one\'s own sessions', answer: '{success: true}' }), async (ctx) => {
    await endAllSessions(app, ctx, who(ctx));
    ctx.body = { success: true };
  });

  router.get('/auth/tokens', auth.viewer(), about({ summary: 'One\'s own personal API tokens (never their secrets)', answer: 'ApiToken[]' }), async (ctx) => {
    ctx.body = await listApiTokens(app, who(ctx));
  });
  router.post('/auth/tokens', auth.viewer(), about({ summary: 'Create a personal API token (a signed-in session only); its secret is in this answer only', answer: 'ApiToken with its secret', status: 201 }), adminJson(), validate({ body: CreateApiToken }, async (ctx, { body }) => {
    noStore(ctx);
    ctx.status = 201;
    ctx.body = await createApiToken(app, who(ctx), body);
  }));
  router.delete('/auth/tokens', auth.viewer(), about({ summary: 'Revoke all of one\'s own personal API tokens', answer: '{revoked: number}' }), async (ctx) => {
    ctx.body = await revokeAllApiTokens(app, who(ctx));
  });
  router.delete('/auth/tokens/:id', auth.viewer(), about({ summary: 'Revoke one of one\'s own personal API tokens', answer: '{success: true}' }), async (ctx) => {
    await revokeApiToken(app, who(ctx), ctx.params.id);
    ctx.body = { success: true };
  });
  return router;
}
