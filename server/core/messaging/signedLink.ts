import crypto from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import { AppHandle, type AppContext } from '../context';

/**
 * Signed links: a URL that is its own credential for one thing until a time (a report's file sent
 * to Slack, Teams or a webhook), checked without a database read. The token names the thing's id
 * and the expiry, and carries an HMAC-SHA256 of both under the server's link key, bound to a
 * purpose and the file's extension: changing any character of it, or using it for another purpose,
 * makes it name nothing. Every process of one deployment holds the same key: derived from
 * SERVER_SECRET when set, otherwise made once and kept in the database (so links outlive restarts
 * even with a random admin token).
 */

/** A verified link: what it names, until when. */
export interface SignedTarget {
  id: string;
  expiresAt: Date;
}

export interface SignedLinks {
  /** A token for `id` until `expiresAt` (URL-safe: `[0-9a-z-]`). */
  sign(purpose: string, id: string, expiresAt: Date, ext?: string): string;
  /** What a token names, or null: malformed, signed otherwise (tampered, another purpose or extension), or expired at `now`. */
  verify(purpose: string, token: string, ext?: string, now?: number): SignedTarget | null;
}

interface ServerKeyDoc {
  _id: string;
  key: string;
  createdAt: Date;
}

const KEY_ID = 'signed-links';
/** 128 bits of the HMAC: enough against guessing, short enough for a chat message's link. */
const SIGNATURE_HEX = 32;

const keySchema = new Schema<ServerKeyDoc>({ _id: { type: String, required: true }, key: { type: String, required: true }, createdAt: { type: Date, required: true } }, { versionKey: false });

const serverKeys = (app: AppContext): Model<ServerKeyDoc> =>
  (app.conn.models.ServerKey as Model<ServerKeyDoc> | undefined) ?? app.conn.model<ServerKeyDoc>('ServerKey', keySchema, 'server_keys');

/** The link key kept in the database: the first process to ask makes it, the others read the same one. */
async function storedKey(app: AppContext): Promise<Buffer> {
  const keys = serverKeys(app);
  const fresh = { key: crypto.randomBytes(32).toString('base64'), createdAt: new Date() };
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await keys.findOneAndUpdate({ _id: KEY_ID }, { $setOnInsert: fresh }, { upsert: true, returnDocument: 'after' }).lean<ServerKeyDoc>();
      return Buffer.from(doc!.key, 'base64');
    } catch (e) {
      // Two processes inserting at once: one wins (E11000 for the other), which then reads the winner's key.
      if ((e as { code?: number }).code !== 11000 || attempt > 2) throw e;
    }
  }
}

function linksWith(key: Buffer): SignedLinks {
  const mac = (purpose: string, id: string, exp: string, ext: string) =>
    crypto.createHmac('sha256', key).update(`${purpose}\n${id}\n${exp}\n${ext}`).digest('hex').slice(0, SIGNATURE_HEX);
  return {
    sign(purpose, id, expiresAt, ext = '') {
      const exp = Math.ceil(expiresAt.getTime() / 1000).toString(36);
      return `${id}-${exp}-${mac(purpose, id, exp, ext)}`;
    },
    verify(purpose, token, ext = '', now = Date.now()) {
      const m = /^([0-9a-f]{24})-([0-9a-z]{1,12})-([0-9a-f]{32})$/.exec(token);
      if (!m) return null;
      const [, id, exp, sig] = m;
      const want = Buffer.from(mac(purpose, id, exp, ext));
      if (!crypto.timingSafeEqual(want, Buffer.from(sig))) return null;
      const expiresAt = new Date(parseInt(exp, 36) * 1000);
      return expiresAt.getTime() > now ? { id, expiresAt } : null;
    },
  };
}

const links = new AppHandle<Promise<SignedLinks>>('signed links', (app) => {
  const made = app.config.SERVER_SECRET
    ? Promise.resolve(Buffer.from(crypto.hkdfSync('sha256', app.config.SERVER_SECRET, '', 'livedash: signed links', 32)))
    : storedKey(app);
  const ready = made.then(linksWith);
  // A failed read is tried again on the next use.
  ready.catch(() => links.clear(app));
  return ready;
});

/** This deployment's signed links (the key read or made on first use). */
export const signedLinksOf = (app: AppContext): Promise<SignedLinks> => links.of(app);
