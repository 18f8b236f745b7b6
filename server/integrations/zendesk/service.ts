import type { Context } from 'koa';
import type {
  CreateIntegration, IntegrationDto, IntegrationRecordsDto, IntegrationSettings, SyncStatusDto, ZendeskOAuthConfig,
} from '@common/schemas/integration';
import { BadRequestError, ValidationError, findDataSource } from '../../core';
import { removeDataSource } from '../../dataSources';
import { buildAuthUrl, defaultRedirectUri, hashState, newState, requestToken, STATE_TTL_MS } from './oauth';
import { forgetAuthorization, validHostUrl } from './hostBinding';
import type { EntityKind, IntegrationDoc } from './models';
import { presentIntegration, presentSyncStatus } from './presenters';
import { requireIntegration, updateIntegration, type ZendeskRuntime } from './runtime';

export async function listIntegrations(rt: ZendeskRuntime): Promise<IntegrationDto[]> {
  const docs = await rt.models.Integration.find().sort({ createdAt: 1 }).lean<IntegrationDoc[]>();
  return docs.map(presentIntegration);
}

/** Creates an integration in status pending; only Zendesk can be connected today. */
export async function createIntegration(rt: ZendeskRuntime, input: { name: string; description: string; type: CreateIntegration['type'] }): Promise<IntegrationDto> {
  if (input.type !== 'zendesk') throw BadRequestError('not_available', `${input.type} integrations are coming soon; only zendesk can be connected`);
  const [doc] = await rt.models.Integration.insertMany([{ name: input.name, description: input.description, type: input.type, status: 'pending' }]);
  const dto = presentIntegration(doc.toObject() as IntegrationDoc);
  rt.app.events.emit('integration.changed', { integrationId: dto.id, integration: dto });
  return dto;
}

/** Deletes an integration with its data source, records, users, organizations and statuses. */
export async function deleteIntegration(rt: ZendeskRuntime, id: string): Promise<void> {
  const doc = await requireIntegration(rt, id);
  const run = rt.running.get(id);
  if (run) {
    run.abort.abort(new Error('Integration deleted'));
    await run.done.catch(() => {});
  }
  await rt.models.Entity.deleteMany({ integrationId: id });
  const ds = doc.sourceId ? await findDataSource(rt.app, doc.sourceId) : null;
  if (ds) await removeDataSource(rt.app, ds);
  await rt.models.Integration.deleteOne({ _id: doc._id });
  rt.app.events.emit('integration.removed', { integrationId: id });
}

/** Stores the OAuth client settings and answers Zendesk's authorization URL with a fresh state. */
export async function configureOAuth(rt: ZendeskRuntime, input: Required<Omit<ZendeskOAuthConfig, 'redirectUri' | 'scope'>> & { redirectUri?: string; scope?: string }, c: Context): Promise<string> {
  const doc = await requireIntegration(rt, input.integrationId);
  if (doc.type !== 'zendesk') throw BadRequestError('wrong_type', 'This integration is not a Zendesk integration');
  const hostUrl = validHostUrl(input.hostUrl, rt.app.config.ZENDESK_HTTP_HOSTS);
  const redirectUri = input.redirectUri || defaultRedirectUri(rt.app, c);
  if (!/^https?:\/\//.test(redirectUri)) throw ValidationError('redirectUri: must be an absolute http(s) URL', [{ path: 'redirectUri', message: 'must be an absolute http(s) URL' }]);
  const scope = input.scope || 'read';
  const state = newState();
  const sameAccount = doc.oauth?.hostUrl === hostUrl && doc.oauth?.clientId === input.clientId;
  if (!sameAccount) {
    // A sync of the old account stops first, so that none of its cursors land after the reset.
    const run = rt.running.get(input.integrationId);
    if (run) {
      run.abort.abort(new Error('Integration reconfigured'));
      await run.done.catch(() => {});
    }
  }
  await updateIntegration(rt, input.integrationId, {
    $set: {
      'oauth.clientId': input.clientId,
      'oauth.clientSecret': input.clientSecret,
      'oauth.hostUrl': hostUrl,
      'oauth.redirectUri': redirectUri,
      'oauth.scope': scope,
      'oauth.stateHash': hashState(state),
      'oauth.stateExpiresAt': new Date(Date.now() + STATE_TTL_MS),
      'config.domain': new URL(hostUrl).host,
      // Another host or client: the old tokens must never reach the new host, and another
      // account's cursor would resume the wrong export. A new authorization is needed.
      ...(sameAccount ? {} : forgetAuthorization()),
    },
  });
  return buildAuthUrl({ hostUrl, clientId: input.clientId, redirectUri, scope, state });
}

export interface OAuthResult {
  success: boolean;
  error: string | null;
  integrationId: string | null;
}

/** The OAuth callback: checks the state, exchanges the code, stores the tokens server-side. */
export async function completeOAuth(rt: ZendeskRuntime, q: { code?: string; state?: string; error?: string; error_description?: string }): Promise<OAuthResult> {
  const { Integration } = rt.models;
  const fail = (error: string, integrationId: string | null = null): OAuthResult => ({ success: false, error, integrationId });
  if (!q.state) return fail('Missing OAuth state');
  // Single use: the state is consumed by the lookup itself.
  const doc = await Integration.findOneAndUpdate(
    { 'oauth.stateHash': hashState(q.state), 'oauth.stateExpiresAt': { $gt: new Date() } },
    { $set: { 'oauth.stateHash': null, 'oauth.stateExpiresAt': null } },
    { returnDocument: 'after' },
  ).lean<IntegrationDoc>();
  if (!doc) return fail('Invalid or expired OAuth state');
  const id = String(doc._id);
  if (q.error) return fail(q.error === 'access_denied' ? 'access_denied' : q.error, id);
  if (!q.code) return fail('Missing authorization code', id);
  const o = doc.oauth;
  try {
    const token = await requestToken(o.hostUrl!, {
      grant_type: 'authorization_code', code: q.code, client_id: o.clientId!, client_secret: o.clientSecret!, redirect_uri: o.redirectUri!, scope: o.scope ?? 'read',
    });
    // Stored only if the Host URL and client are still the ones this authorization was for.
    const stored = await updateIntegration(rt, id, {
      $set: {
        status: 'active', 'oauth.accessToken': token.accessToken, 'oauth.refreshToken': token.refreshToken, 'oauth.tokenExpiresAt': token.expiresAt,
        'oauth.tokenOrigin': new URL(o.hostUrl!).origin,
      },
    }, { 'oauth.hostUrl': o.hostUrl, 'oauth.clientId': o.clientId });
    if (!stored) return fail('The integration was reconfigured during the authorization: authorize it again', id);
    rt.app.log.info(`zendesk: integration ${id} authorized for ${new URL(o.hostUrl!).host}`);
    return { success: true, error: null, integrationId: id };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    await updateIntegration(rt, id, { $set: { status: 'error', 'config.lastSyncErrors': [message] } });
    rt.app.log.warn(`zendesk: integration ${id} authorization failed: ${message}`);
    return fail(message, id);
  }
}

export async function updateSettings(rt: ZendeskRuntime, id: string, s: IntegrationSettings): Promise<IntegrationDto> {
  await requireIntegration(rt, id);
  const doc = await updateIntegration(rt, id, {
    $set: { 'config.autoSync': s.autoSync, 'config.syncInterval': s.syncInterval, nextAutoSyncAt: s.autoSync ? new Date(Date.now() + s.syncInterval * 1000) : null },
  });
  return presentIntegration(doc!);
}

/** Totals per entity kind: tickets from the data source, the rest from the kept entities. */
export async function recordsSummary(rt: ZendeskRuntime, id: string): Promise<IntegrationRecordsDto> {
  const doc = await requireIntegration(rt, id);
  const { Entity } = rt.models;
  const ds = doc.sourceId ? await findDataSource(rt.app, doc.sourceId) : null;
  const count = (kind: EntityKind) => Entity.countDocuments({ integrationId: id, kind });
  const [totalTickets, totalUsers, totalOrganizations, totalCustomStatuses] = await Promise.all([
    ds ? rt.app.models.Record.countDocuments({ dataSourceId: ds._id }) : Promise.resolve(0),
    count('user'), count('organization'), count('custom_status'),
  ]);
  return { totalTickets, totalUsers, totalOrganizations, totalCustomStatuses };
}

export async function syncStatus(rt: ZendeskRuntime, id: string): Promise<SyncStatusDto> {
  return presentSyncStatus(await requireIntegration(rt, id));
}
