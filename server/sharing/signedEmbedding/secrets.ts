import crypto from 'node:crypto';
import type { CreatedEmbedSecretDto, EmbedSecretDto } from '@common/schemas/sharing/embedding';
import type { AppContext, Principal, ServerKey } from '../../core';
import { serverKeyOf } from '../../core';
import { getDashboard } from '../../dashboards';
import { embeddingModel, type StoredSecret } from '../embeddingModel';

/** 32 random bytes: the HS256 key a host signs its tokens with (RFC 7518 asks at least the hash's size). */
const SECRET_BYTES = 32;
const SEAL_VERSION = 'v1';

/**
 * The key embedding secrets are sealed with at rest: the deployment's server key for this purpose
 * (core's `serverKeyOf`: from SERVER_SECRET when set, else a key made once and kept in the
 * database), so a secret made before a restart still opens after it, on every process sharing the
 * database. With SERVER_SECRET set, a database copy alone opens no secret. A secret sealed under
 * another key (SERVER_SECRET set or changed since) reads as unreadable: the console says so, and a
 * rotation makes a readable one.
 */
const keyAtRest = (app: AppContext): Promise<ServerKey> => serverKeyOf(app, 'embedding secrets at rest');

/** The secret sealed with AES-256-GCM, bound to its dashboard and id (a sealed secret moved to another dashboard does not open). */
function seal(key: Buffer, dashboardId: string, secretId: string, secret: Buffer): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${dashboardId}\n${secretId}`));
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [SEAL_VERSION, iv, cipher.getAuthTag(), sealed].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The secret, or null when it was sealed under another key (or tampered with). */
async function unseal(app: AppContext, dashboardId: string, stored: StoredSecret): Promise<Buffer | null> {
  const { key, keyId } = await keyAtRest(app);
  const [version, iv, tag, sealed] = stored.sealed.split('.');
  if (stored.keyId !== keyId || version !== SEAL_VERSION || !iv || !tag || sealed === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`${dashboardId}\n${stored.secretId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]);
  } catch {
    return null;
  }
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** A stored secret as the console sees it: when, by whom, its hint — never the secret. */
export async function presentSecret(app: AppContext, stored: StoredSecret | null | undefined): Promise<EmbedSecretDto | null> {
  if (!stored) return null;
  const { keyId } = await keyAtRest(app);
  return { createdAt: iso(stored.createdAt), createdBy: stored.createdBy, hint: stored.hint, rotated: Boolean(stored.rotated), readable: stored.keyId === keyId };
}

/** Who made a secret, in the words the console shows (a person's name or email; the admin token). */
export const madeBy = (p: Principal | null): string => (p?.user ? p.user.name || p.user.email : 'Admin token');

/**
 * Makes a dashboard's embedding secret, or a new one in place of the old: every token signed with
 * the old one stops at once (the `embedding.secretChanged` event, relayed to every process). The
 * secret is in this answer only; the activity log says who made or rotated it, never the secret.
 */
export async function createEmbedSecret(app: AppContext, dashboardId: string, by: string): Promise<CreatedEmbedSecretDto> {
  const dashboard = await getDashboard(app, dashboardId);
  const model = embeddingModel(app);
  const before = await model.findOne({ dashboardId: dashboard.id }).lean();
  const rotated = Boolean(before?.secret);
  const secret = crypto.randomBytes(SECRET_BYTES);
  const secretId = crypto.randomBytes(9).toString('base64url');
  const text = secret.toString('base64url');
  const atRest = await keyAtRest(app);
  const stored: StoredSecret = {
    secretId,
    sealed: seal(atRest.key, dashboard.id, secretId, secret),
    keyId: atRest.keyId,
    hint: text.slice(0, 6),
    createdAt: new Date(),
    createdBy: by,
    rotated,
  };
  const after = await model.findOneAndUpdate({ dashboardId: dashboard.id }, { $set: { secret: stored } }, { upsert: true, returnDocument: 'after' }).lean();
  app.events.emit('embedding.secretChanged', { dashboardId: dashboard.id });
  const verb = rotated ? 'Rotated' : 'Created';
  app.events.emit('activity.happened', {
    kind: rotated ? 'dashboard.embedSecretRotated' : 'dashboard.embedSecretCreated',
    category: 'admin',
    objectType: 'dashboard',
    objectId: dashboard.id,
    objectName: dashboard.name,
    summary: `${verb} the embedding secret of dashboard "${dashboard.name}"`,
  });
  return { embedding: { dashboardId: dashboard.id, origins: [...(after?.origins ?? [])], secret: await presentSecret(app, stored) }, secret: text };
}

/**
 * The key a dashboard's tokens are verified with: its id and the HMAC key's bytes — the secret as
 * the host holds it, its base64url text as UTF-8 (what jose's `TextEncoder`, PyJWT and `openssl
 * -hmac` take from a string; 256 random bits either way); null when it has none, or none this
 * server can read.
 */
export async function secretFor(app: AppContext, dashboardId: string): Promise<{ secretId: string; bytes: Buffer } | null> {
  const doc = await embeddingModel(app).findOne({ dashboardId }).lean();
  if (!doc?.secret) return null;
  const raw = await unseal(app, dashboardId, doc.secret);
  return raw ? { secretId: doc.secret.secretId, bytes: Buffer.from(raw.toString('base64url'), 'utf8') } : null;
}

/** A removed dashboard's origins and secret go with it (its tokens stop at once). */
export async function removeEmbedding(app: AppContext, dashboardId: string): Promise<void> {
  await embeddingModel(app).deleteMany({ dashboardId });
  app.events.emit('embedding.secretChanged', { dashboardId });
}
