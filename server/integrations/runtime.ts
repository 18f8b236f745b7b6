import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { AppContext } from '../core';
import { AppHandle, NotFoundError, outboundAllowedHosts } from '../core';
import type { IntegrationDoc, IntegrationModels } from './models';
import type { ProviderMemory, PullLimits } from './provider';
import { presentIntegration } from './presenters';

/** What the integrations room's services share: the app, its models and this process's syncs. */
export interface IntegrationsRuntime {
  app: AppContext;
  models: IntegrationModels;
  /** This process's lease owner id. */
  owner: string;
  /** Syncs running in this process, by integration id. */
  running: Map<string, { abort: AbortController; done: Promise<void> }>;
  leaseMs: number;
  maxRetryAfterSeconds: number;
}

export function createRuntime(app: AppContext, models: IntegrationModels, opts: { leaseMs?: number; maxRetryAfterSeconds?: number } = {}): IntegrationsRuntime {
  return {
    app,
    models,
    owner: `${process.pid}-${crypto.randomBytes(6).toString('hex')}`,
    running: new Map(),
    leaseMs: opts.leaseMs ?? 60_000,
    maxRetryAfterSeconds: opts.maxRetryAfterSeconds ?? 120,
  };
}

/**
 * The host:port pairs integrations may reach over plain http or at internal addresses: core's one
 * list (OUTBOUND_ALLOWED_HOSTS and Settings › Outbound hosts, as alerts read it), read at each
 * check and each sync, so a host an admin allows applies at once.
 */
export function allowedHosts(rt: IntegrationsRuntime): readonly string[] {
  return outboundAllowedHosts(rt.app);
}

/** The bounds a pull provider keeps while it reads. */
export function pullLimits(rt: IntegrationsRuntime): PullLimits {
  const c = rt.app.config;
  return {
    maxPageBytes: c.INTEGRATION_PAGE_MAX_BYTES,
    batchSize: c.INTEGRATION_BATCH_RECORDS,
    requestTimeoutMs: c.INTEGRATION_REQUEST_TIMEOUT_MS,
    maxRetryAfterSeconds: rt.maxRetryAfterSeconds,
  };
}

export async function findIntegration(rt: IntegrationsRuntime, id: string): Promise<IntegrationDoc | null> {
  if (!mongoose.isObjectIdOrHexString(id)) return null;
  return rt.models.Integration.findById(id).lean<IntegrationDoc>();
}

export async function requireIntegration(rt: IntegrationsRuntime, id: string): Promise<IntegrationDoc> {
  const doc = await findIntegration(rt, id);
  if (!doc) throw NotFoundError(`Integration ${id}`);
  return doc;
}

/** Applies an update and announces the integration's new state (presented, no secrets). */
export async function updateIntegration(rt: IntegrationsRuntime, id: string, update: Record<string, unknown>, filter: Record<string, unknown> = {}): Promise<IntegrationDoc | null> {
  const doc = await rt.models.Integration.findOneAndUpdate({ _id: id, ...filter }, update, { returnDocument: 'after' }).lean<IntegrationDoc>();
  if (doc) rt.app.events.emit('integration.changed', { integrationId: String(doc._id), integration: presentIntegration(doc) });
  return doc;
}

type Remembered = Map<string, { value: unknown; until: number }>;
/** Providers' memories, per integration (tokens kept until they expire), on the app. */
const memories = new AppHandle<Map<string, Remembered>>('integration provider memories', () => new Map());

/** The memory a provider keeps for one integration in this process. */
export function providerMemory(rt: IntegrationsRuntime, integrationId: string): ProviderMemory {
  const all = memories.of(rt.app);
  const mine = (): Remembered => {
    let m = all.get(integrationId);
    if (!m) all.set(integrationId, (m = new Map()));
    return m;
  };
  return {
    get<T>(key: string): T | undefined {
      const hit = all.get(integrationId)?.get(key);
      if (!hit) return undefined;
      if (hit.until > Date.now()) return hit.value as T;
      all.get(integrationId)?.delete(key);
      return undefined;
    },
    set(key, value, ttlMs) {
      mine().set(key, { value, until: Date.now() + ttlMs });
    },
    delete(key) {
      all.get(integrationId)?.delete(key);
    },
  };
}

/** Forgets what providers kept for an integration (deleted). */
export const forgetProviderMemory = (rt: IntegrationsRuntime, integrationId: string) => memories.of(rt.app).delete(integrationId);

/** A memory for one test of a config not saved yet: kept by nobody. */
export function throwawayMemory(): ProviderMemory {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, set: (k, v) => void m.set(k, v), delete: (k) => void m.delete(k) };
}
