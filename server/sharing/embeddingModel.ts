import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import type { AppContext } from '../core';

/** A dashboard's embedding secret as stored: sealed (AES-256-GCM, signedEmbedding/secrets.ts), never in clear. */
const secretSchema = new Schema(
  {
    /** Names this secret (a rotation makes a new one): a token verified under it ends when it changes. */
    secretId: { type: String, required: true },
    /** `v1.<iv>.<tag>.<ciphertext>`, base64url: the secret sealed with the server's key at rest. */
    sealed: { type: String, required: true },
    /** Which key at rest sealed it (a fingerprint, never the key). */
    keyId: { type: String, required: true },
    hint: { type: String, required: true },
    createdAt: { type: Date, required: true },
    createdBy: { type: String, required: true },
    rotated: { type: Boolean, default: false },
  },
  { _id: false },
);

/** One document per dashboard: the origins allowed to frame its viewer pages, and its embedding secret. */
const embeddingSchema = new Schema(
  {
    dashboardId: { type: String, required: true, unique: true },
    origins: { type: [String], default: [] },
    secret: { type: secretSchema, default: null },
  },
  { minimize: false, versionKey: false, timestamps: true },
);
export type EmbeddingDoc = InferSchemaType<typeof embeddingSchema> & { _id: mongoose.Types.ObjectId };
export type StoredSecret = NonNullable<EmbeddingDoc['secret']>;

/** The app's embeddings collection (`dashboardembeddings`). */
export function embeddingModel(ctx: AppContext): Model<EmbeddingDoc> {
  return (ctx.conn.models.DashboardEmbedding as Model<EmbeddingDoc> | undefined) ?? ctx.conn.model<EmbeddingDoc>('DashboardEmbedding', embeddingSchema, 'dashboardembeddings');
}
