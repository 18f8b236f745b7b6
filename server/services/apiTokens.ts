import mongoose from 'mongoose';
import type { ApiTokenDto, CreateApiToken, CreatedApiTokenDto } from '@common/schemas/auth';
import type { AppContext } from '../context';
import { ForbiddenError, NotFoundError } from '../errors';
import { API_TOKEN_PREFIX, newSecret, sha256, type Principal } from '../auth/accounts';
import { presentApiToken } from '../presenters/users';

const ownerOf = (p: Principal) => {
  if (!p.user) throw ForbiddenError('The admin token has no account: sign in as a person to manage personal API tokens');
  return p.user;
};

/** A named personal API token acting with its owner's role; the token is answered this once, only its hash is kept. */
export async function createApiToken(app: AppContext, p: Principal, input: CreateApiToken): Promise<CreatedApiTokenDto> {
  const owner = ownerOf(p);
  const token = `${API_TOKEN_PREFIX}${newSecret()}`;
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  const hint = `${token.slice(0, 8)}…${token.slice(-4)}`;
  const doc = await app.accounts.models.ApiToken.create({ tokenHash: sha256(token), userId: owner.id, name: input.name, hint, expiresAt });
  app.activity.record({ kind: 'apiToken.created', category: 'auth', objectType: 'user', objectId: owner.id, objectName: owner.email, keyHint: hint, summary: `${owner.name || owner.email} created personal API token "${input.name}"` });
  return { ...presentApiToken(doc.toObject()), token };
}

export async function listApiTokens(app: AppContext, p: Principal): Promise<ApiTokenDto[]> {
  const docs = await app.accounts.models.ApiToken.find({ userId: ownerOf(p).id }).sort({ createdAt: -1 }).lean();
  return docs.map(presentApiToken);
}

/** Revokes one of the caller's tokens at once (every process forgets it). */
export async function revokeApiToken(app: AppContext, p: Principal, id: string): Promise<void> {
  const owner = ownerOf(p);
  const { ApiToken } = app.accounts.models;
  const doc = mongoose.isObjectIdOrHexString(id) ? await ApiToken.findOne({ _id: id, userId: owner.id }).lean() : null;
  if (!doc) throw NotFoundError(`Token ${id}`);
  await ApiToken.deleteOne({ _id: doc._id });
  app.accounts.revoke({ credentialHashes: [doc.tokenHash] });
  app.activity.record({ kind: 'apiToken.revoked', category: 'auth', objectType: 'user', objectId: owner.id, objectName: owner.email, keyHint: doc.hint, summary: `${owner.name || owner.email} revoked personal API token "${doc.name}"` });
}
