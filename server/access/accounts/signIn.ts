import type { Context } from 'koa';
import type { InvitationDto, MeDto, SessionDto, UpdateMe, AcceptInvite, Login, Setup } from '@common/schemas/auth';
import type { z } from 'zod';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../../core';
import { ApiError, ForbiddenError, InvalidAdminTokenError } from '../../core';
import { sha256, type Principal, accountsHandle } from './accounts';
import { isCrossSite, setSessionCookie } from './cookies';
import type { UserDoc } from './models';
import { checkPasswordStrength, hashPassword, spendPasswordTime, verifyPassword } from './passwords';
import { failedCredentials } from '../failedCredentials';
import { credentialRefused, isAdminToken } from '../guards';
import { presentSession, presentUser } from '../users/presentUsers';
import { rateLimitsHandle } from '../rateLimits';

const wrongCredentials = () => new ApiError(401, ErrorCode.invalidCredentials, 'Wrong email or password');
const invitationInvalid = () => new ApiError(400, ErrorCode.invitationInvalid, 'This link is unknown, already used or expired: ask an admin for a new one');
const noAccount = () => ForbiddenError('The admin token has no account: sign in as a person for this');

/** Sign-in forms only work from our own pages (no login cross-site request forgery). */
function sameSiteOnly(app: AppContext, ctx: Context) {
  if (isCrossSite(ctx, app.config)) throw ForbiddenError('This request came from another site: sign in on LiveDash itself', ErrorCode.crossSiteRequest);
}

/** The signed-in person of a request (a principal with a user), else 403. */
function personOf(p: Principal): NonNullable<Principal['user']> {
  if (!p.user) throw noAccount();
  return p.user;
}

export async function me(app: AppContext, p: Principal): Promise<MeDto> {
  const user = p.user ? await accountsHandle.of(app).models.User.findById(p.user.id).lean<UserDoc>() : null;
  return { user: user ? presentUser(user) : null, role: p.role, via: p.via };
}

export async function setupNeeded(app: AppContext): Promise<boolean> {
  return !(await accountsHandle.of(app).models.User.exists({}));
}

/** Creates the first admin, proving the admin token, and signs them in. */
export async function setupFirstAdmin(app: AppContext, ctx: Context, input: z.infer<typeof Setup>): Promise<MeDto> {
  sameSiteOnly(app, ctx);
  if (app.config.ADMIN_TOKEN_DISABLED) throw ForbiddenError('The admin token is turned off (ADMIN_TOKEN_DISABLED), so the first admin cannot be created: start once without it');
  const failures = failedCredentials(rateLimitsHandle.of(app));
  await failures.check(ctx, ctx.ip, input.token);
  if (!isAdminToken(input.token, app.adminToken)) {
    credentialRefused(app, ctx, 'admin');
    await failures.failed(ctx.ip, input.token);
    throw InvalidAdminTokenError();
  }
  if (!(await setupNeeded(app))) throw new ApiError(409, ErrorCode.setupDone, 'The first admin exists already: sign in, or ask an admin for an invitation');
  checkPasswordStrength(input.password, input.email);
  const doc = await accountsHandle.of(app).models.User.create({ email: input.email, name: input.name, role: 'admin', passwordHash: await hashPassword(input.password) });
  const user = doc.toObject() as UserDoc;
  await accountsHandle.of(app).startSession(ctx, user);
  app.events.emit('activity.happened', { kind: 'auth.setup', category: 'auth', objectType: 'user', objectId: String(user._id), objectName: user.email, actor: user.name || user.email, userId: String(user._id), credential: 'admin', summary: `Created the first admin ${user.email} with the admin token` });
  return { user: presentUser({ ...user, lastSignInAt: new Date() }), role: 'admin', via: 'session' };
}

/** Failed sign-ins an account takes from anywhere before its sign-ins slow down. */
const SLOWDOWN_AFTER = 3;

/**
 * How long a sign-in for an account waits, given its failures from anywhere in the window: nothing
 * for the first few, then 1 s, 2 s, 4 s… never more than `maxMs` (at most a minute, by config).
 */
export function signInDelayMs(failures: number, maxMs: number): number {
  return failures <= SLOWDOWN_AFTER ? 0 : Math.min(maxMs, 60_000, 1000 * 2 ** Math.min(failures - SLOWDOWN_AFTER - 1, 16));
}

/**
 * Email and password sign-in. Failures count per (account, address) and per address: 429 past
 * either. Per account, from anywhere, they only slow its sign-ins down (at most a minute): a
 * stranger's wrong passwords can no longer lock the owner out, whose right password from an
 * address that has not failed signs in. The answer is the same whether the email exists.
 */
export async function signIn(app: AppContext, ctx: Context, input: z.infer<typeof Login>): Promise<MeDto> {
  sameSiteOnly(app, ctx);
  const account = sha256(input.email);
  const fromHere = `${account}\n${ctx.ip}`;
  await rateLimitsHandle.of(app).authFailures.check(ctx, ctx.ip);
  await rateLimitsHandle.of(app).signInFailures.check(ctx, fromHere);
  const delay = signInDelayMs(await rateLimitsHandle.of(app).signInSlowdown.count(account), app.config.RATE_LIMIT_SIGN_IN_SLOWDOWN_SECONDS * 1000);
  if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
  const user = await accountsHandle.of(app).models.User.findOne({ email: input.email }).lean<UserDoc>();
  const ok = user?.passwordHash && !user.disabled ? await verifyPassword(input.password, user.passwordHash) : (await spendPasswordTime(input.password), false);
  if (!ok || !user) {
    await Promise.all([rateLimitsHandle.of(app).authFailures.penalize(ctx.ip), rateLimitsHandle.of(app).signInFailures.penalize(fromHere), rateLimitsHandle.of(app).signInSlowdown.penalize(account)]);
    app.events.emit('activity.happened', {
      kind: 'auth.failed', category: 'auth', objectType: user ? 'user' : null, objectId: user ? String(user._id) : null, objectName: input.email,
      summary: `Failed sign-in for ${input.email}`, address: ctx.ip || null, details: { audience: 'signIn', method: ctx.method, path: ctx.path },
    });
    throw wrongCredentials();
  }
  await accountsHandle.of(app).startSession(ctx, user);
  const userId = String(user._id);
  app.events.emit('activity.happened', { kind: 'auth.signedIn', category: 'auth', objectType: 'user', objectId: userId, objectName: user.email, actor: user.name || user.email, userId, credential: 'session', summary: `${user.name || user.email} signed in` });
  return { user: presentUser({ ...user, lastSignInAt: new Date() }), role: user.role as MeDto['role'], via: 'session' };
}

/** Ends the request's session (a bearer call has none) and clears the cookie. */
export async function signOut(app: AppContext, ctx: Context, p: Principal): Promise<void> {
  if (p.via === 'session' && p.credentialHash) await accountsHandle.of(app).endSession(p.credentialHash);
  setSessionCookie(ctx, app.config, '', 0);
}

async function findInvitation(app: AppContext, token: string) {
  const inv = await accountsHandle.of(app).models.Invitation.findOne({ tokenHash: sha256(token) }).lean();
  return inv && inv.expiresAt.getTime() > Date.now() ? inv : null;
}

/** What the link's page shows before accepting. */
export async function describeInvitation(app: AppContext, token: string): Promise<InvitationDto> {
  const inv = await findInvitation(app, token);
  const user = inv ? await accountsHandle.of(app).models.User.findById(inv.userId).lean<UserDoc>() : null;
  if (!inv || !user) throw invitationInvalid();
  return { email: user.email, name: user.name ?? '', kind: inv.kind === 'reset' ? 'reset' : 'invite', expiresAt: inv.expiresAt.toISOString() };
}

/** Accepts an invitation or reset link once: sets name and password, ends other sessions, signs in. */
export async function acceptInvite(app: AppContext, ctx: Context, input: z.infer<typeof AcceptInvite>): Promise<MeDto> {
  sameSiteOnly(app, ctx);
  const { Invitation, User } = accountsHandle.of(app).models;
  // Single use: of two requests with the same link, only the one that deletes it goes on.
  const inv = await findInvitation(app, input.token);
  const used = inv ? (await Invitation.deleteOne({ _id: inv._id })).deletedCount === 1 : false;
  const user = inv && used ? await User.findById(inv.userId).lean<UserDoc>() : null;
  if (!inv || !user || user.disabled) throw invitationInvalid();
  try {
    checkPasswordStrength(input.password, user.email);
  } catch (e) {
    await Invitation.create({ tokenHash: inv.tokenHash, userId: inv.userId, kind: inv.kind, expiresAt: inv.expiresAt }); // the link stays usable
    throw e;
  }
  const updated = (await User.findByIdAndUpdate(inv.userId, { $set: { name: input.name, passwordHash: await hashPassword(input.password) } }, { returnDocument: 'after' }).lean<UserDoc>())!;
  // A reset link is the way back after a takeover: whatever the intruder holds ends, tokens too.
  await accountsHandle.of(app).endUserSessions(inv.userId);
  const tokensEnded = inv.kind === 'reset' ? await accountsHandle.of(app).endUserTokens(inv.userId) : 0;
  await accountsHandle.of(app).startSession(ctx, updated);
  app.events.emit('activity.happened', {
    kind: inv.kind === 'reset' ? 'user.passwordReset' : 'user.joined', category: 'auth', objectType: 'user', objectId: inv.userId, objectName: updated.email,
    actor: updated.name || updated.email, userId: inv.userId, credential: 'session',
    summary: inv.kind === 'reset'
      ? `${updated.email} set a new password with a reset link (every session${tokensEnded ? ` and ${tokensEnded} personal API token(s)` : ''} ended)`
      : `${updated.email} accepted the invitation as ${updated.role}`,
  });
  return { user: presentUser({ ...updated, lastSignInAt: new Date() }), role: updated.role as MeDto['role'], via: 'session' };
}

/** Changes one's name or password (the current one proven); a new password ends every session, this one starts anew. */
export async function updateMe(app: AppContext, ctx: Context, p: Principal, input: UpdateMe): Promise<MeDto> {
  const person = personOf(p);
  const { User } = accountsHandle.of(app).models;
  const user = await User.findById(person.id).lean<UserDoc>();
  if (!user) throw noAccount();
  const set: Record<string, unknown> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.newPassword) {
    if (!user.passwordHash || !(await verifyPassword(input.currentPassword ?? '', user.passwordHash))) {
      await rateLimitsHandle.of(app).authFailures.penalize(ctx.ip);
      throw new ApiError(400, ErrorCode.invalidCredentials, 'The current password is wrong', [{ path: 'currentPassword', message: 'wrong password' }]);
    }
    checkPasswordStrength(input.newPassword, user.email);
    set.passwordHash = await hashPassword(input.newPassword);
  }
  const updated = (await User.findByIdAndUpdate(person.id, { $set: set }, { returnDocument: 'after' }).lean<UserDoc>())!;
  if (input.newPassword) {
    await accountsHandle.of(app).endUserSessions(person.id);
    if (p.via === 'session') await accountsHandle.of(app).startSession(ctx, updated);
    app.events.emit('activity.happened', { kind: 'user.passwordChanged', category: 'auth', objectType: 'user', objectId: person.id, objectName: updated.email, summary: `${updated.name || updated.email} changed their password (every session ended)` });
  } else {
    accountsHandle.of(app).revoke({ userId: person.id, refreshOnly: true });
  }
  return { user: presentUser(updated), role: updated.role as MeDto['role'], via: p.via };
}

export async function listSessions(app: AppContext, p: Principal): Promise<SessionDto[]> {
  const person = personOf(p);
  const docs = await accountsHandle.of(app).models.Session.find({ userId: person.id }).sort({ lastSeenAt: -1 }).lean();
  return docs.filter((s) => s.expiresAt.getTime() > Date.now()).map((s) => presentSession(s, p.credentialHash));
}

/** Sign out everywhere: every session of the person ends, their sockets close. */
export async function endAllSessions(app: AppContext, ctx: Context, p: Principal): Promise<void> {
  const person = personOf(p);
  await accountsHandle.of(app).endUserSessions(person.id);
  setSessionCookie(ctx, app.config, '', 0);
  app.events.emit('activity.happened', { kind: 'auth.signedOutEverywhere', category: 'auth', objectType: 'user', objectId: person.id, objectName: person.email, summary: `${person.name || person.email} signed out everywhere` });
}
