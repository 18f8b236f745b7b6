import crypto from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import { AppHandle, type AppContext } from '../context';

/**
 * The deployment's server key: the root every process of one deployment derives the same keys from,
 * one per purpose (HKDF-SHA256, `livedash: <purpose>`), for things that must outlive a restart —
 * secrets sealed at rest, signatures checked later. SERVER_SECRET when set (a database copy alone
 * then opens nothing sealed under it); otherwise a random key made once and kept in the database
 * (`server_keys`), so a restart on the same database — or another process sharing it — agrees.
 * Never the admin token: it may be made anew on each start.
 */
export interface ServerKey {
  /** 32 bytes for this purpose only. */
  key: Buffer;
  /** A fingerprint of the key (which key sealed or signed something), never the key itself. */
  keyId: string;
}

interface ServerKeyDoc {
  _id: string;
  key: string;
  createdAt: Date;
}

const ROOT_ID = 'root';

const keySchema = new Schema<ServerKeyDoc>(
  { _id: { type: String, required: true }, key: { type: String, required: true }, createdAt: { type: Date, required: true } },
  { versionKey: false, autoCreate: false },
);

const serverKeys = (app: AppContext): Model<ServerKeyDoc> =>
  (app.conn.models.ServerKey as Model<ServerKeyDoc> | undefined) ?? app.conn.model<ServerKeyDoc>('ServerKey', keySchema, 'server_keys');

/** The root kept in the database: the first process to ask makes it, every other one reads the same. */
async function storedRoot(app: AppContext): Promise<Buffer> {
  const fresh = { key: crypto.randomBytes(32).toString('base64'), createdAt: new Date() };
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await serverKeys(app).findOneAndUpdate({ _id: ROOT_ID }, { $setOnInsert: fresh }, { upsert: true, returnDocument: 'after' }).lean<ServerKeyDoc>();
      return Buffer.from(doc!.key, 'base64');
    } catch (e) {
      // Two processes inserting at once: one wins; the other's E11000 means read again.
      if ((e as { code?: number }).code !== 11000 || attempt > 2) throw e;
    }
  }
}

interface Keys {
  root: Promise<Buffer>;
  derived: Map<string, ServerKey>;
}

const keys = new AppHandle<Keys>('the server key', (app) => {
  const root = app.config.SERVER_SECRET ? Promise.resolve(Buffer.from(app.config.SERVER_SECRET, 'utf8')) : storedRoot(app);
  // A failed read (the database away) is tried again on the next use.
  root.catch(() => keys.clear(app));
  return { root, derived: new Map() };
});

/** This deployment's key for one purpose (read or made on first use, then held). */
export async function serverKeyOf(app: AppContext, purpose: string): Promise<ServerKey> {
  const held = keys.of(app);
  const known = held.derived.get(purpose);
  if (known) return known;
  const key = Buffer.from(crypto.hkdfSync('sha256', await held.root, '', `livedash: ${purpose}`, 32));
  const made = { key, keyId: crypto.createHash('sha256').update('key id\n').update(key).digest('base64url').slice(0, 12) };
  held.derived.set(purpose, made);
  return made;
}
