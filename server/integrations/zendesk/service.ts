import type { Context } from 'koa';
import type { ZendeskOAuthConfig, ZendeskRecordsDto } from '@common/schemas/integration';
import { BadRequestError, ValidationError, findDataSource } from '../../core';
import { buildAuthUrl, defaultRedirectUri, hashState, newState, requestToken, STATE_TTL_MS } from './oauth';
import { forgetAuthorization, validHostUrl, zendeskHosts } from './hostBinding';
import type { EntityKind } from './models';
import type { IntegrationDoc } from '../models';
import { requireIntegration, updateIntegration, type IntegrationsRuntime } from '../runtime';
import { stopRun } from '../syncRun';

/** Stores the OAuth client settings and answers Zendesk's authorization URL with a fresh state. */
export async function configureOAuth(rt: IntegrationsRuntime, input: Required<Omit<ZendeskOAuthConfig, 'redirectUri' | 'scope'>> & { redirectUri?: string; scope?: string }, c: Context): Promise<string> {
  const doc = await requireIntegration(rt, input.integrationId);
  if (doc.type !== 'zendesk') throw BadRequestError('wrong_type', 'This integration is not a Zendesk integration');
  const hostUrl = validHostUrl(input.hostUrl, zendeskHosts(rt));
  const redirectUri = input.redirectUri || defaultRedirectUri(rt.app, c);
  if (!/^https?:\/\//.test(redirectUri)) throw ValidationError('redirectUri: must be an absolute http(s) URL', [{ path: 'redirectUri', message: 'must be an absolute http(s) URL' }]);
  const scope = input.scope || 'read';
  const state = newState();
  const sameAccount = doc.oauth?.hostUrl === hostUrl && doc.oauth?.clientId === input.clientId;
  if (!sameAccount) {
    // A sync of the old account stops first, so that none of its cursors land after the reset.
    await stopRun(rt, input.integrationId, 'Integration reconfigured');
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
export async function completeOAuth(rt: IntegrationsRuntime, q: { code?: string; state?: string; error?: string; error_description?: string }): Promise<OAuthResult> {
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
    const token = await requestToken(o.hostUrl!, zendeskHosts(rt), {
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

/** Totals per entity kind: tickets from the data source, the rest from the kept entities. */
export async function recordsSummary(rt: IntegrationsRuntime, doc: IntegrationDoc): Promise<ZendeskRecordsDto> {
  const id = String(doc._id);
  const { Entity } = rt.models;
  const ds = doc.sourceId ? await findDataSource(rt.app, doc.sourceId) : null;
  const count = (kind: EntityKind) => Entity.countDocuments({ integrationId: id, kind });
  const [totalTickets, totalUsers, totalOrganizations, totalCustomStatuses] = await Promise.all([
    ds ? rt.app.models.Record.countDocuments({ dataSourceId: ds._id }) : Promise.resolve(0),
    count('user'), count('organization'), count('custom_status'),
  ]);
  return { totalTickets, totalUsers, totalOrganizations, totalCustomStatuses };
}

/** Forgets what Zendesk kept beside the records (users, organizations, statuses) of a deleted integration. */
export async function forgetEntities(rt: IntegrationsRuntime, id: string): Promise<void> {
  await rt.models.Entity.deleteMany({ integrationId: id });
}
