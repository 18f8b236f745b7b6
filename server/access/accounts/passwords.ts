import crypto from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { ErrorCode } from '@common/schemas/errors';
import { ApiError } from '../../core';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** scrypt (memory-hard, built into Node): N=2^15, r=8, p=1 uses 32 MiB and about 0.1 s per hash. */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

const COMMON = new Set(
  fs
    .readFileSync(new URL('./commonPasswords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l && !l.startsWith('#')),
);

/** A stored password: `scrypt$N$r$p$salt$hash` (base64url), so the cost can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...PARAMS, maxmem: MAX_MEM });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether a password matches its stored hash (constant-time comparison). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEM });
  return crypto.timingSafeEqual(key, expected);
}

/** A hash of nothing anyone knows: unknown emails cost the same time as wrong passwords. */
let decoy: Promise<string> | null = null;
export async function spendPasswordTime(password: string): Promise<void> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}

/** Refuses a password from the common-passwords list, or one that is the email or its name part (length is checked by the schema). */
export function checkPasswordStrength(password: string, email: string): void {
  const p = password.toLowerCase();
  const local = email.toLowerCase().split('@')[0];
  if (COMMON.has(p) || p === email.toLowerCase() || (local.length >= 4 && p.includes(local) && p.length - local.length < 4)) {
    throw new ApiError(400, ErrorCode.weakPassword, 'This password is too common or too close to the email: choose another (a few unrelated words work well)', [
      { path: 'password', message: 'too common' },
    ]);
  }
}
