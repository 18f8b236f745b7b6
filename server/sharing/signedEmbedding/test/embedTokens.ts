import crypto from 'node:crypto';
import { SignJWT } from 'jose';

const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');

/**
 * A signed embed token as a host signs it (jose, HS256 unless `alg`), with the secret's text as the
 * key and `exp` a minute ahead unless the claims set it (`exp: undefined` leaves it out).
 */
export async function signEmbed(secret: string, claims: Record<string, unknown>, opts: { alg?: 'HS256' | 'HS384' | 'HS512' } = {}): Promise<string> {
  const payload: Record<string, unknown> = { exp: Math.floor(Date.now() / 1000) + 60, ...claims };
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
  return new SignJWT(payload).setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** A token made by hand: any header, and the signature `sign` gives over `header.payload` (none: empty). */
export function handMadeToken(header: Record<string, unknown>, payload: Record<string, unknown>, sign: (input: string) => string = () => ''): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
}

/** An HMAC-SHA256 signature of `input` with the secret's text: what a confused verifier would accept for RS256. */
export const hmacWith = (secret: string) => (input: string) => crypto.createHmac('sha256', secret).update(input).digest('base64url');

/** The same token with its payload changed (the signature kept). */
export function tampered(token: string, change: (claims: Record<string, unknown>) => Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  return `${header}.${b64(change(claims))}.${signature}`;
}
