import crypto from 'node:crypto';

/** A keyed hash of a value (a credential, an address) for names stored outside the process, such as Redis keys. */
export type KeyedHash = (value: string) => string;

/**
 * HMAC-SHA256 keyed by the server secret: SERVER_SECRET when set, else the admin token — both are
 * the same on every process that shares a Redis, so their keys agree. The key is derived (HKDF, a
 * fixed label), never the secret itself; without it a stored hash cannot be matched to a guess.
 */
export function keyedHash(serverSecret: string | undefined, adminToken: string): KeyedHash {
  const key = Buffer.from(crypto.hkdfSync('sha256', serverSecret ?? adminToken, '', 'livedash: keys of values stored outside the process', 32));
  return (value) => crypto.createHmac('sha256', key).update(value).digest('base64url');
}
