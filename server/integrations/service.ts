import type {
  IntegrationDto, IntegrationRecordsDto, IntegrationSettings, IntegrationType, StartSyncResponse, SyncStatusDto, TestConnectionDto,
} from '@common/schemas/integration';
import { BadRequestError, ConflictError, ValidationError, findDataSource } from '../core';
import { removeDataSource } from '../dataSources';
import type { IntegrationDoc } from './models';
import { presentIntegration, presentSyncStatus } from './presenters';
import type { PullConfigBase, PullProvider } from './provider';
import { pullProvider, pullTypes } from './providers';
import { readFirstPage } from './connectionTest';
import { beginPull, requireReachable, storedConfig } from './pull';
import { forgetProviderMemory, providerMemory, requireIntegration, throwawayMemory, updateIntegration, type IntegrationsRuntime } from './runtime';
import { DELETED, stopRun } from './syncRun';
import { beginZendeskSync, forgetZendeskEntities, zendeskRecordsSummary } from './zendesk';

export async function listIntegrations(rt: IntegrationsRuntime): Promise<IntegrationDto[]> {
  const docs = await rt.models.Integration.find().sort({ createdAt: 1 }).lean<IntegrationDoc[]>();
  return docs.map(presentIntegration);
}

export async function getIntegration(rt: IntegrationsRuntime, id: string): Promise<IntegrationDto> {
  return presentIntegration(await requireIntegration(rt, id));
}

/** A config checked by its provider's schema: a 400 naming `config.<path>` for each problem. */
function parseConfig(provider: PullProvider, raw: unknown): PullConfigBase {
  const parsed = provider.config.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => ({ path: ['config', ...i.path.map(String)].join('.'), message: i.message }));
  throw ValidationError(fields.map((f) => `${f.path}: ${f.message}`).join('; '), fields);
}

function providerFor(type: IntegrationType | string): PullProvider {
  const provider = pullProvider(type);
  if (!provider) throw BadRequestError('not_available', `${type} integrations are coming soon; zendesk, ${pullTypes().join(', ')} can be connected`);
  return provider;
}

/**
 * Creates an integration. Zendesk starts pending (its OAuth comes next); an API or a database
 * needs its config, checked by its provider and the one way out's rule, and is active at once.
 */
export async function createIntegration(
  rt: IntegrationsRuntime, input: { name: string; description: string; type: IntegrationType; config?: Record<string, unknown> },
): Promise<IntegrationDto> {
  let fields: Partial<IntegrationDoc> = { status: 'pending' };
  if (input.type === 'zendesk') {
    if (input.config !== undefined) throw ValidationError('config: a Zendesk integration is configured through OAuth (POST /api/integrations/zendesk/config), not config', [{ path: 'config', message: 'not used by Zendesk' }]);
  } else {
    const provider = providerFor(input.type);
    if (input.config === undefined) throw ValidationError(`config: is required for a ${provider.label} integration`, [{ path: 'config', message: 'is required' }]);
    const config = parseConfig(provider, input.config);
    requireReachable(rt, provider, config);
    fields = { status: 'active', connection: config as Record<string, unknown>, config: { ...defaultSettings(), domain: provider.describe(config) } };
  }
  const [doc] = await rt.models.Integration.insertMany([{ name: input.name, description: input.description, type: input.type, ...fields }]);
  const dto = presentIntegration(doc.toObject() as IntegrationDoc);
  rt.app.events.emit('integration.changed', { integrationId: dto.id, integration: dto });
  return dto;
}

const defaultSettings = (): IntegrationDoc['config'] => ({ domain: null, autoSync: false, syncInterval: 30, lastCursor: null, lastSyncErrors: [] });

/**
 * The config a PUT (or a test of an edit) means: what was sent, a secret left out (or sent back
 * masked) keeping its stored value — unless the config now sends its secrets somewhere else, where
 * they must be typed again.
 */
export function editedConfig(provider: PullProvider, stored: PullConfigBase | null, raw: Record<string, unknown>): PullConfigBase {
  if (!stored) return parseConfig(provider, raw);
  const { config: merged, kept } = provider.secrets.keep(raw, stored);
  const config = parseConfig(provider, merged);
  if (kept.length && provider.secrets.destination(config) !== provider.secrets.destination(stored)) {
    const message = `enter it again: the config now sends its secrets to ${provider.secrets.destination(config)}, and a stored secret only goes where it was first sent`;
    throw ValidationError(`config.${kept[0]}: ${message}`, kept.map((k) => ({ path: `config.${k}`, message })));
  }
  return config;
}

/**
 * Replaces an API's or a database's config (see editedConfig for its secrets). A change of what is
 * read (anything but secrets and maxPages) starts the next sync from the beginning.
 */
export async function updateConfig(rt: IntegrationsRuntime, id: string, raw: Record<string, unknown>): Promise<IntegrationDto> {
  const doc = await requireIntegration(rt, id);
  if (doc.type === 'zendesk') throw BadRequestError('wrong_type', 'A Zendesk integration is configured through OAuth: POST /api/integrations/zendesk/config');
  const provider = providerFor(doc.type);
  if (doc.sync?.isRunning) throw ConflictError('A sync is running for this integration: change its config once it has finished');
  const stored = (doc.connection ?? null) as PullConfigBase | null;
  const config = editedConfig(provider, stored, raw);
  requireReachable(rt, provider, config);
  const same = (c: PullConfigBase) => JSON.stringify({ ...(provider.secrets.mask(c) as object), maxPages: undefined });
  const restart = !stored || same(config) !== same(stored);
  const after = await updateIntegration(rt, id, {
    $set: { connection: config, 'config.domain': provider.describe(config), status: 'active', ...(restart ? { cursor: null } : {}) },
  }, { 'sync.isRunning': { $ne: true } });
  if (!after) throw ConflictError('A sync started for this integration meanwhile: change its config once it has finished');
  return presentIntegration(after);
}

/** Test connection of a stored integration: its config, or an edit of it (`config`, not saved). */
export async function testIntegration(rt: IntegrationsRuntime, id: string, edit: Record<string, unknown> | undefined): Promise<TestConnectionDto> {
  const doc = await requireIntegration(rt, id);
  if (doc.type === 'zendesk') throw BadRequestError('wrong_type', 'Test connection is for API and database integrations; a Zendesk integration is tested by authorizing it');
  const provider = providerFor(doc.type);
  const config = edit ? editedConfig(provider, (doc.connection ?? null) as PullConfigBase | null, edit) : storedConfig(provider, doc);
  requireReachable(rt, provider, config);
  return readFirstPage(rt, provider, config, providerMemory(rt, id));
}

/** Test connection of a config not saved yet (the form before Create). */
export async function testUnsaved(rt: IntegrationsRuntime, type: IntegrationType, raw: Record<string, unknown>): Promise<TestConnectionDto> {
  if (type === 'zendesk') throw BadRequestError('wrong_type', 'A Zendesk integration is tested by authorizing it');
  const provider = providerFor(type);
  const config = parseConfig(provider, raw);
  requireReachable(rt, provider, config);
  return readFirstPage(rt, provider, config, throwawayMemory());
}

export async function updateSettings(rt: IntegrationsRuntime, id: string, s: IntegrationSettings): Promise<IntegrationDto> {
  await requireIntegration(rt, id);
  const doc = await updateIntegration(rt, id, {
    $set: { 'config.autoSync': s.autoSync, 'config.syncInterval': s.syncInterval, nextAutoSyncAt: s.autoSync ? new Date(Date.now() + s.syncInterval * 1000) : null },
  });
  return presentIntegration(doc!);
}

/** Deletes an integration with its data source, records, runs (and Zendesk's users, organizations and statuses). */
export async function deleteIntegration(rt: IntegrationsRuntime, id: string): Promise<void> {
  const doc = await requireIntegration(rt, id);
  await stopRun(rt, id, DELETED);
  if (doc.type === 'zendesk') await forgetZendeskEntities(rt, id);
  const ds = doc.sourceId ? await findDataSource(rt.app, doc.sourceId) : null;
  if (ds) await removeDataSource(rt.app, ds);
  await rt.models.Run.deleteMany({ integrationId: id });
  forgetProviderMemory(rt, id);
  await rt.models.Integration.deleteOne({ _id: doc._id });
  rt.app.events.emit('integration.removed', { integrationId: id });
}

/** Starts a sync: Zendesk's (initial from startDate, else incremental), or a pull from the stored cursor (`full`: from the beginning). 409 while one runs. */
export async function startSync(
  rt: IntegrationsRuntime, id: string, body: { startDate?: number; full?: boolean }, trigger: 'manual' | 'auto' = 'manual',
): Promise<{ response: StartSyncResponse; done: Promise<void> }> {
  const doc = await requireIntegration(rt, id);
  if (doc.type === 'zendesk') return beginZendeskSync(rt, id, body, trigger);
  if (body.startDate !== undefined) throw ValidationError('startDate: only a Zendesk sync starts from a date; send {"full": true} to read everything again', [{ path: 'startDate', message: 'only for Zendesk' }]);
  const { mode, done } = await beginPull(rt, providerFor(doc.type), doc, { full: Boolean(body.full), trigger });
  return { response: { status: 'started', integrationId: id, mode: mode === 'full' ? 'initial' : 'incremental' }, done };
}

export async function syncStatus(rt: IntegrationsRuntime, id: string): Promise<SyncStatusDto> {
  return presentSyncStatus(await requireIntegration(rt, id));
}

/** Zendesk's totals per entity kind, or the records of a pull integration's data source. */
export async function recordsSummary(rt: IntegrationsRuntime, id: string): Promise<IntegrationRecordsDto> {
  const doc = await requireIntegration(rt, id);
  if (doc.type === 'zendesk') return zendeskRecordsSummary(rt, doc);
  const ds = doc.sourceId ? await findDataSource(rt.app, doc.sourceId) : null;
  return { totalRecords: ds ? await rt.app.models.Record.countDocuments({ dataSourceId: ds._id }) : 0 };
}
