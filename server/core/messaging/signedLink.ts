import crypto from 'node:crypto';
import { AppHandle, type AppContext } from '../context';
import { serverKeyOf } from '../keys/serverKey';

/**
 * Signed links: a URL that is its own credential for one thing until a time (a report's file sent
 * to Slack, Teams or a webhook), checked without a database read. The token names the thing's id
 * and the expiry, and carries an HMAC-SHA256 of both under the server's link key, bound to a
 * purpose and the file's extension: changing any character of it, or using it for another purpose,
 * makes it name nothing. The key is the deployment's server key for this purpose (core/keys:
 * SERVER_SECRET when set, otherwise made once and kept in the database), so links outlive restarts
 * even with a random admin token, and every process agrees.
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

/** 128 bits of the HMAC: enough against guessing, short enough for a chat message's link. */
const SIGNATURE_HEX = 32;

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
  const ready = serverKeyOf(app, 'signed links').then((k) => linksWith(k.key));
  // A failed read is tried again on the next use.
  ready.catch(() => links.clear(app));
  return ready;
});

/** This deployment's signed links (the key read or made on first use). */
export const signedLinksOf = (app: AppContext): Promise<SignedLinks> => links.of(app);
