import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { AppContext } from '../../core';
import { NotFoundError } from '../../core';
import type { IntegrationDoc, ZendeskModels } from './models';
import { presentIntegration } from './presenters';

/** What the Zendesk integration's services share: the app, its models and this process's syncs. */
export interface ZendeskRuntime {
  app: AppContext;
  models: ZendeskModels;
  /** This process's lease owner id. */
  owner: string;
  /** Syncs running in this process, by integration id. */
  running: Map<string, { abort: AbortController; done: Promise<void> }>;
  leaseMs: number;
  maxRetryAfterSeconds: number;
}

export function createRuntime(app: AppContext, models: ZendeskModels, opts: { leaseMs?: number; maxRetryAfterSeconds?: number } = {}): ZendeskRuntime {
  return {
    app,
    models,
    owner: `${process.pid}-${crypto.randomBytes(6).toString('hex')}`,
    running: new Map(),
    leaseMs: opts.leaseMs ?? 60_000,
    maxRetryAfterSeconds: opts.maxRetryAfterSeconds ?? 120,
  };
}

export async function findIntegration(rt: ZendeskRuntime, id: string): Promise<IntegrationDoc | null> {
  if (!mongoose.isObjectIdOrHexString(id)) return null;
  return rt.models.Integration.findById(id).lean<IntegrationDoc>();
}

export async function requireIntegration(rt: ZendeskRuntime, id: string): Promise<IntegrationDoc> {
  const doc = await findIntegration(rt, id);
  if (!doc) throw NotFoundError(`Integration ${id}`);
  return doc;
}

/** Applies an update and announces the integration's new state (presented, no secrets). */
export async function updateIntegration(rt: ZendeskRuntime, id: string, update: Record<string, unknown>, filter: Record<string, unknown> = {}): Promise<IntegrationDoc | null> {
  const doc = await rt.models.Integration.findOneAndUpdate({ _id: id, ...filter }, update, { returnDocument: 'after' }).lean<IntegrationDoc>();
  if (doc) rt.app.events.emit('integration.changed', { integrationId: String(doc._id), integration: presentIntegration(doc) });
  return doc;
}
