import mongoose from 'mongoose';
import type { ApiTokenDto, CreateApiToken, CreatedApiTokenDto } from '@common/schemas/auth';
import type { AppContext } from '../../core';
import { ForbiddenError, NotFoundError } from '../../core';
import { API_TOKEN_PREFIX, newSecret, sha256, type Principal, accountsHandle } from './accounts';
import type { UserDoc } from './models';
import { presentApiToken } from '../users/presentUsers';

type Person = NonNullable<Principal['user']>;

const ownerOf = (p: Principal) => {
  if (!p.user) throw ForbiddenError('The admin token has no account: sign in as a person to manage personal API tokens');
  return p.user;
};

/**
 * A named personal API token acting with its owner's role; the token is answered this once, only
 * its hash is kept. Only a signed-in session creates one: a stolen token must not be able to mint
 * more tokens that would outlive its own revocation.
 */
export async function createApiToken(app: AppContext, p: Principal, input: CreateApiToken): Promise<CreatedApiTokenDto> {
  const owner = ownerOf(p);
  if (p.via !== 'session') throw ForbiddenError('A personal API token cannot create tokens: sign in and create it under My account → Personal API tokens');
  const token = `${API_TOKEN_PREFIX}${newSecret()}`;
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  const hint = `${token.slice(0, 8)}…${token.slice(-4)}`;
  const doc = await accountsHandle.of(app).models.ApiToken.create({ tokenHash: sha256(token), userId: owner.id, name: input.name, hint, expiresAt });
  app.events.emit('activity.happened', { kind: 'apiToken.created', category: 'auth', objectType: 'user', objectId: owner.id, objectName: owner.email, keyHint: hint, summary: `${owner.name || owner.email} created personal API token "${input.name}"` });
  return { ...presentApiToken(doc.toObject()), token };
}

async function tokensOf(app: AppContext, userId: string): Promise<ApiTokenDto[]> {
  const docs = await accountsHandle.of(app).models.ApiToken.find({ userId }).sort({ createdAt: -1 }).lean();
  return docs.map(presentApiToken);
}

/** Deletes one token of a person and ends it at once in every process; 404 when it is not theirs. */
async function revokeTokenOf(app: AppContext, owner: Person, id: string, admin: string | null): Promise<void> {
  const { ApiToken } = accountsHandle.of(app).models;
  const doc = mongoose.isObjectIdOrHexString(id) ? await ApiToken.findOne({ _id: id, userId: owner.id }).lean() : null;
  if (!doc) throw NotFoundError(`Token ${id}`);
  await ApiToken.deleteOne({ _id: doc._id });
  accountsHandle.of(app).revoke({ credentialHashes: [doc.tokenHash] });
  app.events.emit('activity.happened', { kind: 'apiToken.revoked', category: 'auth', objectType: 'user', objectId: owner.id, objectName: owner.email, keyHint: doc.hint, summary: admin ? `${admin} revoked personal API token "${doc.name}" of ${owner.email}` : `${owner.name || owner.email} revoked personal API token "${doc.name}"` });
}

export const listApiTokens = (app: AppContext, p: Principal) => tokensOf(app, ownerOf(p).id);

/** Revokes one of the caller's tokens at once (every process forgets it). */
export async function revokeApiToken(app: AppContext, p: Principal, id: string): Promise<void> {
  await revokeTokenOf(app, ownerOf(p), id, null);
}

/** "Revoke all": every token of the caller ends at once (after a password change, a lost laptop). */
export async function revokeAllApiTokens(app: AppContext, p: Principal): Promise<{ revoked: number }> {
  const owner = ownerOf(p);
  const revoked = await accountsHandle.of(app).endUserTokens(owner.id);
  if (revoked) app.events.emit('activity.happened', { kind: 'apiToken.revoked', category: 'auth', objectType: 'user', objectId: owner.id, objectName: owner.email, summary: `${owner.name || owner.email} revoked all ${revoked} of their personal API tokens` });
  return { revoked };
}

/** A person of the team, for an admin; 404 when unknown. */
async function personById(app: AppContext, userId: string): Promise<Person> {
  const u = mongoose.isObjectIdOrHexString(userId) ? await accountsHandle.of(app).models.User.findById(userId).lean<UserDoc>() : null;
  if (!u) throw NotFoundError(`User ${userId}`);
  return { id: String(u._id), email: u.email, name: u.name ?? '', dashboardIds: u.dashboardIds ?? null };
}

/** An admin's view of another person's tokens (never the token or its hash). */
export async function listUserApiTokens(app: AppContext, userId: string): Promise<ApiTokenDto[]> {
  return tokensOf(app, (await personById(app, userId)).id);
}

/** An admin revokes one token of another person, short of disabling them. */
export async function revokeUserApiToken(app: AppContext, admin: Principal, userId: string, tokenId: string): Promise<void> {
  const by = admin.user ? admin.user.name || admin.user.email : 'The admin token';
  await revokeTokenOf(app, await personById(app, userId), tokenId, by);
}
