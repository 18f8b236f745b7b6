import type Router from '@koa/router';
import { InviteUser, UpdateUser } from '@common/schemas/auth';
import type { AppContext } from '../../core';
import { about, validate } from '../../core';
import { listUserApiTokens, revokeUserApiToken } from '../accounts/apiTokens';
import { principalOf } from '../guards';
import { inviteUser, listUsers, removeUser, resetLink, updateUser } from './users';
import { resourceRouter } from '../resourceRouter';

/** The team, for admins: invite, change role or dashboard limits, disable, remove, issue a reset link, see and revoke personal API tokens. */
export function usersRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  router.get('/admin/users', auth.admin(), about({ summary: 'The team: every person with role, dashboard limits and state', answer: 'User[]' }), async (ctx) => {
    ctx.body = await listUsers(app);
  });
  router.post('/admin/users', auth.admin(), about({ summary: 'Invite a person with a role (and optional dashboard limits); the invitation link is in this answer', answer: 'InviteLink', status: 201 }), adminJson(), validate({ body: InviteUser }, async (ctx, { body }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await inviteUser(app, ctx, body);
  }));
  router.patch('/admin/users/:id', auth.admin(), about({ summary: 'Change a person\'s role, dashboard limits, name, or disable them', answer: 'User' }), adminJson(), validate({ body: UpdateUser }, async (ctx, { body }) => {
    ctx.body = await updateUser(app, ctx.params.id, body);
  }));
  router.delete('/admin/users/:id', auth.admin(), about({ summary: 'Remove a person; their sessions and tokens end', answer: '{success: true}' }), async (ctx) => {
    await removeUser(app, ctx.params.id);
    ctx.body = { success: true };
  });
  router.post('/admin/users/:id/reset-link', auth.admin(), about({ summary: 'Issue a password reset link for a person (using it ends all their sessions and tokens)', answer: 'InviteLink' }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await resetLink(app, ctx, ctx.params.id);
  });
  router.get('/admin/users/:id/tokens', auth.admin(), about({ summary: 'A person\'s personal API tokens (never their secrets)', answer: 'ApiToken[]' }), async (ctx) => {
    ctx.body = await listUserApiTokens(app, ctx.params.id);
  });
  router.delete('/admin/users/:id/tokens/:tokenId', auth.admin(), about({ summary: 'Revoke one of a person\'s personal API tokens', answer: '{success: true}' }), async (ctx) => {
    await revokeUserApiToken(app, principalOf(ctx)!, ctx.params.id, ctx.params.tokenId);
    ctx.body = { success: true };
  });
  return router;
}
