import mongoose from 'mongoose';
import { ACTIVE_ADMINS, isActiveAdmin, takesAdminAway } from '../policy';
import type { Context } from 'koa';
import type { InviteLinkDto, InviteUser, UpdateUser, UserDto } from '@common/schemas/auth';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../../core';
import { ApiError, ConflictError, NotFoundError } from '../../core';
import type { UserDoc } from '../accounts/models';
import { newSecret, sha256, accountsHandle } from '../accounts/accounts';
import { presentUser } from './presentUsers';
import { withAdminsLock } from '../accounts/adminsLock';
import { sendMail } from './mailer';

/** How long an invitation or reset link works. */
export const INVITATION_MS = 7 * 24 * 3600 * 1000;

const lastAdminError = (what: string) => new ApiError(409, ErrorCode.lastAdmin, `This is the last active admin: ${what} would leave nobody to manage the team. Make someone else admin first.`);

export async function listUsers(app: AppContext): Promise<UserDto[]> {
  const docs = await accountsHandle.of(app).models.User.find().sort({ createdAt: 1 }).lean<UserDoc[]>();
  return docs.map(presentUser);
}

async function requireUser(app: AppContext, id: string): Promise<UserDoc> {
  const user = mongoose.isObjectIdOrHexString(id) ? await accountsHandle.of(app).models.User.findById(id).lean<UserDoc>() : null;
  if (!user) throw NotFoundError(`User ${id}`);
  return user;
}

async function otherActiveAdmins(app: AppContext, userId: mongoose.Types.ObjectId): Promise<number> {
  return accountsHandle.of(app).models.User.countDocuments({ _id: { $ne: userId }, ...ACTIVE_ADMINS });
}

/** The public link of an invitation or reset token (PUBLIC_URL, else the address the admin used). */
function linkUrl(app: AppContext, ctx: Context, token: string): string {
  const base = app.config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;
  return `${base.replace(/\/$/, '')}/invite/${token}`;
}

/** What the email of a link says (the link is the secret: it goes in the mail, never in a log). */
function linkMail(user: UserDoc, kind: 'invite' | 'reset', url: string, expiresAt: Date) {
  const until = `This link works once, until ${expiresAt.toUTCString()}.`;
  return kind === 'invite'
    ? { to: user.email, subject: 'You are invited to LiveDash', text: `You have been invited to LiveDash as ${user.role}.\n\nSet your name and password here:\n${url}\n\n${until}\n` }
    : { to: user.email, subject: 'Reset your LiveDash password', text: `An admin issued a password reset for your LiveDash account.\n\nSet a new password here:\n${url}\n\n${until} Your current sessions and personal API tokens end when you use it.\n` };
}

/** A fresh single-use link for a person (earlier links of theirs stop working), emailed when SMTP is configured. */
async function issueLink(app: AppContext, ctx: Context, user: UserDoc, kind: 'invite' | 'reset'): Promise<InviteLinkDto> {
  const { Invitation } = accountsHandle.of(app).models;
  const token = newSecret();
  const expiresAt = new Date(Date.now() + INVITATION_MS);
  await Invitation.deleteMany({ userId: String(user._id) });
  await Invitation.create({ tokenHash: sha256(token), userId: String(user._id), kind, expiresAt });
  const url = linkUrl(app, ctx, token);
  const emailed = await sendMail(app, linkMail(user, kind, url, expiresAt));
  return { user: presentUser(user), url, expiresAt: expiresAt.toISOString(), emailed };
}

/** Invites a person by email and role: a single-use link valid 7 days, emailed (SMTP_URL) or shown to the admin to pass on. */
export async function inviteUser(app: AppContext, ctx: Context, input: InviteUser): Promise<InviteLinkDto> {
  const { User } = accountsHandle.of(app).models;
  if (await User.exists({ email: input.email })) throw ConflictError(`${input.email} is already on the team`);
  const user = (await User.create({ email: input.email, name: input.name ?? '', role: input.role, dashboardIds: input.dashboardIds ?? null })).toObject() as UserDoc;
  app.events.emit('activity.happened', { kind: 'user.invited', category: 'admin', objectType: 'user', objectId: String(user._id), objectName: user.email, summary: `Invited ${user.email} as ${user.role}` });
  return issueLink(app, ctx, user, 'invite');
}

/** A new single-use link for a person: an invitation again, or a password reset once they have one. */
export async function resetLink(app: AppContext, ctx: Context, id: string): Promise<InviteLinkDto> {
  const user = await requireUser(app, id);
  const link = await issueLink(app, ctx, user, user.passwordHash ? 'reset' : 'invite');
  app.events.emit('activity.happened', { kind: 'user.resetLink', category: 'admin', objectType: 'user', objectId: id, objectName: user.email, summary: `Issued a ${user.passwordHash ? 'password reset' : 'new invitation'} link for ${user.email}` });
  return link;
}

/** Changes a person's role, dashboard limits, name or disabled flag; never leaves the team without an active admin. */
export async function updateUser(app: AppContext, id: string, patch: UpdateUser): Promise<UserDto> {
  const demoted = takesAdminAway(patch.role);
  const write = async () => {
    const user = await requireUser(app, id);
    if (isActiveAdmin(user) && (demoted || patch.disabled === true) && (await otherActiveAdmins(app, user._id)) === 0) {
      throw lastAdminError(demoted ? 'changing the role' : 'disabling');
    }
    const updated = await accountsHandle.of(app).models.User.findByIdAndUpdate(id, { $set: patch }, { returnDocument: 'after' }).lean<UserDoc>();
    if (!updated) throw NotFoundError(`User ${id}`);
    return { user, updated };
  };
  // A change that may take an admin away checks and writes under the admins lock (two admins demoting each other at once).
  const { user, updated } = await (demoted || patch.disabled === true ? withAdminsLock(app, write) : write());
  const roleChanged = patch.role !== undefined && patch.role !== user.role;
  const disabledChanged = patch.disabled !== undefined && patch.disabled !== user.disabled;
  if (roleChanged || (disabledChanged && patch.disabled)) await accountsHandle.of(app).endUserSessions(id);
  else accountsHandle.of(app).revoke({ userId: id, refreshOnly: true });
  const changes = [
    roleChanged ? `role ${user.role} → ${updated.role}` : null,
    disabledChanged ? (updated.disabled ? 'disabled' : 'enabled') : null,
    patch.dashboardIds !== undefined ? (updated.dashboardIds ? `limited to ${updated.dashboardIds.length} dashboard(s)` : 'every dashboard') : null,
    patch.name !== undefined ? 'name' : null,
  ].filter(Boolean);
  app.events.emit('activity.happened', {
    kind: roleChanged ? 'user.roleChanged' : 'user.updated', category: 'admin', objectType: 'user', objectId: id, objectName: updated.email,
    summary: `Changed ${updated.email}: ${changes.join(', ') || 'nothing'}`, details: { fields: Object.keys(patch).sort() },
  });
  return presentUser(updated);
}

/** Removes a person: their sessions, tokens and links end at once. */
export async function removeUser(app: AppContext, id: string): Promise<void> {
  const { User, ApiToken, Invitation } = accountsHandle.of(app).models;
  const user = await withAdminsLock(app, async () => {
    const found = await requireUser(app, id);
    if (isActiveAdmin(found) && (await otherActiveAdmins(app, found._id)) === 0) throw lastAdminError('removing them');
    await User.deleteOne({ _id: found._id });
    return found;
  });
  await Promise.all([ApiToken.deleteMany({ userId: id }), Invitation.deleteMany({ userId: id })]);
  await accountsHandle.of(app).endUserSessions(id);
  app.events.emit('activity.happened', { kind: 'user.removed', category: 'admin', objectType: 'user', objectId: id, objectName: user.email, summary: `Removed ${user.email}` });
}
