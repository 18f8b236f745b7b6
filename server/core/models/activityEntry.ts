import mongoose, { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

const activitySchema = new Schema(
  {
    at: { type: Date, required: true },
    kind: { type: String, required: true },
    category: { type: String, required: true },
    objectType: { type: String, default: null },
    objectId: { type: String, default: null },
    objectName: { type: String, default: null },
    summary: { type: String, default: '' },
    address: { type: String, default: null },
    credential: { type: String, default: null },
    keyHint: { type: String, default: null },
    /** Who acted: the person's name, "admin token" or "ingest key <hint>"; userId for a person. */
    actor: { type: String, default: null },
    userId: { type: String, default: null },
    details: { type: Schema.Types.Mixed, default: {} },
  },
  { minimize: false, versionKey: false },
);
activitySchema.index({ category: 1, at: -1 });
activitySchema.index({ objectId: 1, at: -1 });
activitySchema.index({ userId: 1, at: -1 });

export type ActivityEntryDoc = InferSchemaType<typeof activitySchema> & { _id: mongoose.Types.ObjectId };

/**
 * The activity model on a connection, with its TTL index: entries older than `retentionDays` are
 * removed by the database. A changed retention replaces the TTL index.
 */
export async function activityModel(conn: Connection, retentionDays: number, warn: (msg: string, e: unknown) => void): Promise<Model<ActivityEntryDoc>> {
  const model = (conn.models.ActivityEntry as Model<ActivityEntryDoc> | undefined) ?? conn.model<ActivityEntryDoc>('ActivityEntry', activitySchema, 'activity');
  await model.createIndexes();
  const expireAfterSeconds = retentionDays * 86_400;
  try {
    await model.collection.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds });
  } catch {
    // Another retention was set before: replace the index.
    try {
      await model.collection.dropIndex('at_ttl');
      await model.collection.createIndex({ at: 1 }, { name: 'at_ttl', expireAfterSeconds });
    } catch (e) {
      warn('activity log: could not set the retention index', e);
    }
  }
  return model;
}
