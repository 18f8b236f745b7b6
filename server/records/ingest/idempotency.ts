import crypto from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext, IdempotencyKeyDoc } from '../../core';
import { ApiError } from '../../core';
import { bearerToken, type IngestState } from '../../access';

/** How long a key answers its first result again. */
export const IDEMPOTENCY_KEY_MS = 24 * 3600 * 1000;
/** Longest Idempotency-Key accepted (Stripe's bound). */
export const IDEMPOTENCY_KEY_MAX = 255;
/**
 * How long a first request counts as in flight: a duplicate meanwhile answers 409. Past it the
 * first one is taken for dead (its process was killed) and a retry runs again — safe, since the
 * retry writes the very same records (records/writer/sourceWriter.ts, stableRecordId), never a second copy.
 */
const IN_FLIGHT_MS = 60_000;

/** What the writer needs to give a keyed request's append-only records stable ids. */
export interface IdempotencyState {
  idempotencyScope?: string;
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** The request's credential as the ingest guard read it (header, else `?key=`). */
function credentialOf(ctx: Context): string {
  const key = typeof ctx.query.key === 'string' ? ctx.query.key.trim() : '';
  return bearerToken(ctx) ?? (ctx.get('x-ingest-key').trim() || key);
}

/** The source a request names: the source URL's, else the body's sourceId ('' for a batch naming sources record by record). */
function sourceNamed(ctx: Context): string {
  const { ingestCredential } = ctx.state as IngestState;
  if (!ingestCredential.admin) return String(ingestCredential.source._id);
  const fromPath = (ctx.params as Record<string, string> | undefined)?.sourceId;
  const body = ctx.request.body as { sourceId?: unknown } | null;
  return fromPath ?? (body && typeof body === 'object' && !Array.isArray(body) && typeof body.sourceId === 'string' ? body.sourceId : '');
}

/**
 * A hash of what the request asks: method, route, the query it reads (not the key) and the parsed
 * body. Large bodies are hashed a thousand elements at a time, yielding between, so the event loop
 * is never held for long.
 */
async function fingerprintOf(ctx: Context): Promise<string> {
  const hash = crypto.createHash('sha256');
  const query = Object.entries(ctx.query).filter(([k]) => k !== 'key').sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify([ctx.method, ctx.path, query]));
  const feed = async (value: unknown): Promise<void> => {
    if (!Array.isArray(value)) {
      if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          hash.update(`\n${JSON.stringify(k)}:`);
          await feed(v);
        }
      } else hash.update(JSON.stringify(value) ?? 'undefined');
      return;
    }
    hash.update(`\n[${value.length}`);
    for (let i = 0; i < value.length; i += 1000) {
      if (i) await new Promise((resolve) => setImmediate(resolve));
      for (const v of value.slice(i, i + 1000)) hash.update(`\n${JSON.stringify(v)}`);
    }
  };
  await feed(ctx.request.body);
  return hash.digest('hex');
}

const isDuplicateKey = (e: unknown) => (e as { code?: number })?.code === 11000;

type Claim = { run: true; startedAt: Date } | { run: false; doc: IdempotencyKeyDoc };

/** Takes the key for this request, or finds who holds it. Expired keys are dropped on read. */
async function claim(app: AppContext, id: string, fingerprint: string): Promise<Claim> {
  const { IdempotencyKey } = app.models;
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    try {
      await IdempotencyKey.create({ _id: id, fingerprint, state: 'pending', startedAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_MS) });
      return { run: true, startedAt: now };
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    const doc = await IdempotencyKey.findById(id).lean<IdempotencyKeyDoc>();
    if (!doc) continue;
    if (doc.expiresAt.getTime() <= now.getTime()) {
      await IdempotencyKey.deleteOne({ _id: id, expiresAt: doc.expiresAt });
      continue;
    }
    if (doc.fingerprint !== fingerprint || doc.state === 'done') return { run: false, doc };
    if (now.getTime() - doc.startedAt.getTime() < IN_FLIGHT_MS) return { run: false, doc };
    // The first request's process died mid-way: this retry takes over (and rewrites the same records).
    const taken = await IdempotencyKey.updateOne({ _id: id, state: 'pending', startedAt: doc.startedAt }, { $set: { startedAt: now } });
    if (taken.modifiedCount === 1) return { run: true, startedAt: now };
  }
  throw new ApiError(409, ErrorCode.idempotencyKeyInFlight, 'This Idempotency-Key keeps changing hands: retry in a moment');
}

/**
 * Idempotency-Key on ingest (Stripe's convention). A sender that retries after a lost answer sends
 * the same key: within 24 hours, on the same source with the same credential, the first success is
 * answered again (same status and body, `Idempotent-Replayed: true`) and nothing is written. The
 * same key with another request answers 422; while the first is still running, 409 (retry later:
 * we answer at once rather than hold the connection). Only a success is remembered: a refused
 * request wrote nothing, and its retry runs again.
 *
 * Crash safety: the key is stored before the write and its answer after it, so a kill -9 in
 * between leaves the key pending with records stored. Past IN_FLIGHT_MS a retry runs again and
 * writes the same records under the same ids (append-only records get sourceWriter's stableRecordId, keyed ones
 * their key): the source never holds a request's records twice, and the append-only records the
 * killed try already stored are kept as they are (writeRecords keepStored). What such a retry
 * cannot give back is the first answer's exact counts (records already stored count as updated).
 *
 * Runs after the guard and the body parser (it needs the credential and the body).
 */
export function idempotent(app: AppContext): Middleware {
  return async (ctx, next) => {
    const raw = ctx.get('idempotency-key');
    if (!raw) return next();
    const key = raw.trim();
    if (!key || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x20-\x7e]+$/.test(key)) {
      throw new ApiError(400, ErrorCode.idempotencyKeyInvalid, `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters (a UUID is a good choice); got ${key.length} characters`);
    }
    // The scope: the credential (hashed), the source and the key; another sender's same key is another key.
    const scope = sha256(JSON.stringify([sha256(credentialOf(ctx)), sourceNamed(ctx), key]));
    const fingerprint = await fingerprintOf(ctx);
    const got = await claim(app, scope, fingerprint);
    if (!got.run) {
      const { doc } = got;
      if (doc.fingerprint !== fingerprint) {
        throw new ApiError(422, ErrorCode.idempotencyKeyReused, 'This Idempotency-Key was already used with a different request (body, URL or query) in the last 24 hours: send a new key for a new request');
      }
      if (doc.state !== 'done') throw new ApiError(409, ErrorCode.idempotencyKeyInFlight, 'A request with this Idempotency-Key is still being written: retry in a few seconds to get its answer');
      ctx.status = doc.status ?? 200;
      ctx.body = JSON.parse(doc.body ?? 'null') as unknown;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    const { IdempotencyKey } = app.models;
    const mine = { _id: scope, state: 'pending', startedAt: got.startedAt };
    (ctx.state as IdempotencyState).idempotencyScope = scope;
    try {
      await next();
    } catch (e) {
      await IdempotencyKey.deleteOne(mine).catch((err: unknown) => app.log.error('idempotency: could not release a key', err));
      throw e;
    }
    if (ctx.status >= 200 && ctx.status < 300) {
      await IdempotencyKey.updateOne(mine, { $set: { state: 'done', status: ctx.status, body: JSON.stringify(ctx.body) } })
        .catch((err: unknown) => app.log.error('idempotency: could not store an answer (a retry will rewrite the same records)', err));
    } else {
      await IdempotencyKey.deleteOne(mine).catch((err: unknown) => app.log.error('idempotency: could not release a key', err));
    }
  };
}
