import { Schema, type InferSchemaType } from 'mongoose';

/**
 * An Idempotency-Key an ingest request came with, for 24 hours: the request it stood for (a
 * fingerprint) and, once answered, its status and body. `_id` is a hash of the credential, the
 * source and the key — never the credential or the key in clear. The TTL index removes expired
 * keys where the engine runs TTL monitors; readers check `expiresAt` too (the offline engine may not).
 */
export const idempotencyKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    fingerprint: { type: String, required: true },
    /** 'pending' while the first request runs (since `startedAt`), 'done' once answered. */
    state: { type: String, required: true },
    startedAt: { type: Date, required: true },
    status: { type: Number, default: null },
    /** The answer's JSON, as sent. */
    body: { type: String, default: null },
    expiresAt: { type: Date, required: true },
  },
  { minimize: false, versionKey: false },
);
idempotencyKeySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export type IdempotencyKeyDoc = InferSchemaType<typeof idempotencyKeySchema> & { _id: string };
