import mongoose, { Schema, type Connection, type Model } from 'mongoose';

/** Secrets live only here and never leave through a presenter or a log line. */
export interface OAuthState {
  clientId: string | null;
  clientSecret: string | null;
  hostUrl: string | null;
  redirectUri: string | null;
  scope: string | null;
  /** sha256 of the pending authorization's state; cleared when used. */
  stateHash: string | null;
  stateExpiresAt: Date | null;
  accessToken: string | null;
  refreshToken: string | null;
  tokenExpiresAt: Date | null;
  /** The origin that issued the tokens: they are never sent anywhere else. */
  tokenOrigin: string | null;
}

/** Where the next incremental sync resumes, per Zendesk export. */
export interface SyncCursors {
  tickets: string | null;
  users: string | null;
  /** Time-based export: the next start_time. */
  organizations: number | null;
}

export type EntityKind = 'user' | 'organization' | 'custom_status';

/** Users, organizations and custom statuses: kept for the totals and to resolve names. */
export interface EntityDoc {
  _id: mongoose.Types.ObjectId;
  integrationId: string;
  kind: EntityKind;
  zendeskId: number;
  name: string;
  data: Record<string, unknown>;
  updatedAt: Date;
}

const entitySchema = new Schema(
  {
    integrationId: { type: String, required: true },
    kind: { type: String, required: true },
    zendeskId: { type: Number, required: true },
    name: { type: String, default: '' },
    data: { type: Schema.Types.Mixed, default: {} },
    updatedAt: { type: Date },
  },
  { minimize: false, versionKey: false },
);
entitySchema.index({ integrationId: 1, kind: 1, zendeskId: 1 }, { unique: true });

export interface ZendeskModels {
  Entity: Model<EntityDoc>;
}

/** Registers Zendesk's own model (the integration document is the room's: ../models.ts). */
export async function createZendeskModels(conn: Connection): Promise<ZendeskModels> {
  const models: ZendeskModels = {
    Entity: conn.models.ZendeskEntity ?? conn.model<EntityDoc>('ZendeskEntity', entitySchema, 'zendesk_entities'),
  };
  await models.Entity.createIndexes();
  return models;
}
