import { AppHandle, ApiError } from '../../core';
import type { Principal, Revocation, Config, DomainEventBus, Logger } from '../../core';
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { Context } from 'koa';
import type { Role } from '@common/schemas/auth';
import { ErrorCode } from '@common/schemas/errors';
import type { AccountModels, UserDoc } from './models';
import { readSessionCookie, setSessionCookie } from './cookies';

/** Who a request is, once a guard let it through. */
export type { Principal, Revocation } from '../../core';

export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;
/** How long a looked-up session or token is trusted from memory (revocation evicts it at once). */
export const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
/** How often a session's last use (and so its idle expiry) or a token's last use is written. */
const TOUCH_MS = 60_000;
export const API_TOKEN_PREFIX = 'ldp_';

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
export const newSecret = () => crypto.randomBytes(32).toString('base64url');

interface Cached {
  principal: Principal;
  userId: string;
  /** When the credential itself ends (session expiry, token expiry). */
  expiresAt: number;
  cachedAt: number;
  touchedAt: number;
}

/** What ends sessions and tokens in every process: a user (all theirs) or some credentials. */
const userOf = (u: UserDoc): NonNullable<Principal['user']> => ({ id: String(u._id), email: u.email, name: u.name ?? '', dashboardIds: u.dashboardIds ?? null });

/**
 * Sessions and personal API tokens: looked up by the hash of the secret, kept in memory for a
 * short while so a signed-in call costs no database read, and evicted at once by a revocation
 * (the `auth.revoked` domain event, relayed to the other processes by realtime/authRelay).
 */
export function createAccounts(app: { config: Config; log: Logger; events: DomainEventBus; models: AccountModels }) {
  const { models } = app;
  const cache = new Map<string, Cached>();
  /** Counts revocations: a look-up that read the database before one must not cache what it read. */
  let revocations = 0;

  const evict = (r: Revocation) => {
    revocations++;
    for (const h of r.credentialHashes ?? []) cache.delete(h);
    if (r.userId) for (const [k, v] of cache) if (v.userId === r.userId) cache.delete(k);
  };
  const off = app.events.on('auth.revoked', evict);

  const remember = (hash: string, entry: Cached): Cached => {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    const fresh = { ...entry, cachedAt: Date.now() };
    cache.set(hash, fresh);
    return fresh;
  };

  const findUser = (userId: string) => models.User.findById(userId).lean<UserDoc>();

  type SessionRow = { idHash: string; userId: string; expiresAt: Date; lastSeenAt: Date };
  type TokenRow = { tokenHash: string; userId: string; expiresAt?: Date | null; lastUsedAt?: Date | null };
  const isActive = (user: UserDoc | null | undefined): user is UserDoc => Boolean(user && !user.disabled && user.passwordHash);

  /** The cache entry of a live session and its (active) person, or null. */
  const sessionEntry = (s: SessionRow, user: UserDoc | null | undefined): Cached | null =>
    s.expiresAt.getTime() <= Date.now() || !isActive(user) ? null
    : { principal: { via: 'session', role: user.role as Role, user: userOf(user), credentialHash: s.idHash }, userId: s.userId, expiresAt: s.expiresAt.getTime(), cachedAt: 0, touchedAt: s.lastSeenAt.getTime() };

  /** The cache entry of a live token and its (active) person, or null. */
  const tokenEntry = (t: TokenRow, user: UserDoc | null | undefined): Cached | null =>
    (t.expiresAt && t.expiresAt.getTime() <= Date.now()) || !isActive(user) ? null
    : { principal: { via: 'apiToken', role: user.role as Role, user: userOf(user), credentialHash: t.tokenHash }, userId: t.userId, expiresAt: t.expiresAt?.getTime() ?? Infinity, cachedAt: 0, touchedAt: t.lastUsedAt?.getTime() ?? 0 };

  async function loadSession(hash: string): Promise<Cached | null> {
    const s = await models.Session.findOne({ idHash: hash }).lean<SessionRow>();
    return s ? sessionEntry(s, await findUser(s.userId)) : null;
  }

  async function loadToken(hash: string): Promise<Cached | null> {
    const t = await models.ApiToken.findOne({ tokenHash: hash }).lean<TokenRow>();
    return t ? tokenEntry(t, await findUser(t.userId)) : null;
  }

  /**
   * Many credentials read again from the database at once — three queries whatever their number
   * (their sessions, tokens and people) — and the cache refreshed with what was found: the open
   * sockets' periodic check. Each hash maps to its principal, or null when it has ended.
   */
  async function reload(credentials: { via: 'session' | 'apiToken'; hash: string }[]): Promise<Map<string, Principal | null>> {
    const wanted = (via: 'session' | 'apiToken') => [...new Set(credentials.filter((c) => c.via === via).map((c) => c.hash))];
    const [sessionHashes, tokenHashes] = [wanted('session'), wanted('apiToken')];
    const [sessions, tokens] = await Promise.all([
      sessionHashes.length ? models.Session.find({ idHash: { $in: sessionHashes } }).lean<SessionRow[]>() : [],
      tokenHashes.length ? models.ApiToken.find({ tokenHash: { $in: tokenHashes } }).lean<TokenRow[]>() : [],
    ]);
    const userIds = [...new Set([...sessions, ...tokens].map((x) => x.userId))].filter((id) => mongoose.isObjectIdOrHexString(id));
    const users = new Map((userIds.length ? await models.User.find({ _id: { $in: userIds } }).lean<UserDoc[]>() : []).map((u) => [String(u._id), u]));
    const entries = new Map<string, Cached | null>([...sessionHashes, ...tokenHashes].map((h) => [h, null]));
    for (const s of sessions) entries.set(s.idHash, sessionEntry(s, users.get(s.userId)));
    for (const t of tokens) entries.set(t.tokenHash, tokenEntry(t, users.get(t.userId)));
    const found = new Map<string, Principal | null>();
    for (const [hash, entry] of entries) {
      if (entry) remember(hash, entry);
      else cache.delete(hash);
      found.set(hash, entry?.principal ?? null);
    }
    return found;
  }

  /** Records the use of a session (its idle expiry moves) or a token, at most once a minute. */
  function touch(hash: string, entry: Cached) {
    const now = Date.now();
    if (now - entry.touchedAt < TOUCH_MS) return;
    entry.touchedAt = now;
    const write =
      entry.principal.via === 'session'
        ? models.Session.findOne({ idHash: hash }).lean().then((s) => {
          if (!s) return;
          const expiresAt = new Date(Math.min(now + SESSION_IDLE_MS, s.createdAt.getTime() + SESSION_ABSOLUTE_MS));
          entry.expiresAt = expiresAt.getTime();
          return models.Session.updateOne({ idHash: hash }, { $set: { lastSeenAt: new Date(now), expiresAt } });
        })
        : models.ApiToken.updateOne({ tokenHash: hash }, { $set: { lastUsedAt: new Date(now) } });
    void Promise.resolve(write).catch((e) => app.log.error('accounts: could not record a credential\'s use', e));
  }

  /** The principal of a session id or API token, from memory when fresh; null when unknown or ended. */
  async function lookup(kind: 'session' | 'apiToken', hash: string): Promise<Principal | null> {
    let entry = cache.get(hash);
    const now = Date.now();
    if (entry && (now - entry.cachedAt > CACHE_TTL_MS || entry.principal.via !== kind)) {
      cache.delete(hash);
      entry = undefined;
    }
    if (!entry) {
      const load = () => (kind === 'session' ? loadSession(hash) : loadToken(hash));
      const before = revocations;
      let loaded = await load();
      // A revocation landed while the database was read (its delete may have come after our read):
      // read again, so a revoked token is never cached for CACHE_TTL_MS. Revocations made by other
      // processes reach this one through the same `auth.revoked` event (realtime/authRelay over
      // Redis); without Redis a revocation elsewhere is seen here within CACHE_TTL_MS.
      if (revocations !== before) loaded = await load();
      if (!loaded) return null;
      entry = remember(hash, loaded);
    }
    if (entry.expiresAt <= now) {
      cache.delete(hash);
      return null;
    }
    touch(hash, entry);
    return entry.principal;
  }

  return {
    models,
    lookupSession: (id: string) => lookup('session', sha256(id)),
    lookupApiToken: (token: string) => lookup('apiToken', sha256(token)),
    /** The principal of a credential known by its hash (a recovered socket), or null when it has ended. */
    lookupHash: (via: 'session' | 'apiToken', hash: string) => lookup(via, hash),
    reload,

    /** Starts a session for a person and sets its cookie on the answer. */
    async startSession(ctx: Context, user: UserDoc): Promise<void> {
      const id = newSecret();
      const now = new Date();
      await models.Session.create({
        idHash: sha256(id), userId: String(user._id), createdAt: now, lastSeenAt: now,
        expiresAt: new Date(now.getTime() + SESSION_IDLE_MS), userAgent: ctx.get('user-agent').slice(0, 300), address: ctx.ip || null,
      });
      await models.User.updateOne({ _id: user._id }, { $set: { lastSignInAt: now } });
      setSessionCookie(ctx, app.config, id, SESSION_ABSOLUTE_MS / 1000);
    },

    /** The session cookie's id hash of a request, or null. */
    sessionHashOf: (cookieHeader: string | undefined) => {
      const id = readSessionCookie(cookieHeader);
      return id ? sha256(id) : null;
    },

    /** Ends credentials in every process, and disconnects their sockets. */
    revoke(r: Revocation) {
      app.events.emit('auth.revoked', r);
    },

    /** Ends every session of a person (sign out everywhere, password or role change, disabling, removal). */
    async endUserSessions(userId: string): Promise<void> {
      await models.Session.deleteMany({ userId });
      app.events.emit('auth.revoked', { userId });
    },

    /** Revokes every personal API token of a person (reset link used, "revoke all"); returns how many. */
    async endUserTokens(userId: string): Promise<number> {
      const tokens = await models.ApiToken.find({ userId }, { tokenHash: 1 }).lean();
      if (!tokens.length) return 0;
      await models.ApiToken.deleteMany({ _id: { $in: tokens.map((t) => t._id) } });
      app.events.emit('auth.revoked', { credentialHashes: tokens.map((t) => t.tokenHash) });
      return tokens.length;
    },

    async endSession(hash: string): Promise<void> {
      await models.Session.deleteOne({ idHash: hash });
      app.events.emit('auth.revoked', { credentialHashes: [hash] });
    },

    /** Forgets every cached session and token (tests remove documents without events). */
    clearCache: () => cache.clear(),

    close: off,
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

/** This app's accounts (sessions, tokens, people), set at start-up. */
export const accountsHandle = new AppHandle<Accounts>('the accounts');

/** 401 for a credential that is not (or no longer) valid. */
export const sessionEndedError = () => new ApiError(401, ErrorCode.sessionEnded, 'Your session has ended: sign in again');
