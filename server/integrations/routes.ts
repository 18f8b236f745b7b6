import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { CreateIntegration, IntegrationConfigUpdate, IntegrationSettings, StartSync, TestConnection, TestUnsavedConnection } from '@common/schemas/integration';
import { ObjectIdParam } from '@common/ids';
import { about, activity, canonicalParams, validate } from '../core';
import { askerOfRequest, refuseLimited, resourceRouter } from '../access';
import { listRuns } from './runs';
import { requireIntegration, type IntegrationsRuntime } from './runtime';
import {
  createIntegration, deleteIntegration, getIntegration, listIntegrations, recordsSummary, startSync, syncStatus, testIntegration, testUnsaved, updateConfig,
  updateSettings,
} from './service';

/** /api/integrations for every provider: admins manage integrations (Zendesk's OAuth routes are in zendesk/routes.ts). */
export function integrationsRouter(rt: IntegrationsRuntime): Router {
  const { router, auth, adminJson } = resourceRouter(rt.app);
  const integrationId = canonicalParams({ id: ObjectIdParam }, 'Integration');
  // An integration makes, fills and deletes a data source of its own: an admin limited to chosen dashboards manages none.
  const everyDashboard = async (c: Context, next: Next) => {
    refuseLimited(askerOfRequest(c), 'manage integrations (each one makes, fills and deletes a data source of its own)');
    return next();
  };

  router.get('/integrations', auth.admin(), about({ summary: 'List integrations', answer: 'Integration[]' }), everyDashboard, async (c) => {
    c.body = await listIntegrations(rt);
  });

  router.post(
    '/integrations',
    auth.admin(),
    about({ summary: 'Create an integration (an API or a database with its config; Zendesk, then its OAuth)', answer: 'Integration', status: 201, activity: activity('integration.created', 'integration', 'created integration', 'answer') }), everyDashboard,
    adminJson(),
    validate({ body: CreateIntegration }, async (c, { body }) => {
      c.status = 201;
      c.body = await createIntegration(rt, { name: body.name, description: body.description ?? '', type: body.type, config: body.config });
    }),
  );

  router.get('/integrations/:id', auth.admin(), about({ summary: 'One integration: status, settings, data source, last run (secrets masked)', answer: 'Integration' }), everyDashboard, integrationId, async (c) => {
    c.body = await getIntegration(rt, c.params.id);
  });

  router.put(
    '/integrations/:id/config',
    auth.admin(),
    about({ summary: 'Replace an API\'s or a database\'s config (a secret left out or sent masked keeps its stored value)', answer: 'Integration', activity: activity('integration.updated', 'integration', 'changed the config of integration', 'param:id') }), everyDashboard,
    integrationId,
    adminJson(),
    validate({ body: IntegrationConfigUpdate }, async (c, { body }) => {
      c.body = await updateConfig(rt, c.params.id, body);
    }),
  );

  router.post(
    '/integrations/:id/test',
    auth.admin(),
    about({ summary: 'Test connection: read the first page (batch), store nothing; {config} tests an edit before it is saved', answer: '{ok: true, fields, sample, records}, or 422 saying what went wrong' }), everyDashboard,
    integrationId,
    adminJson(),
    validate({ body: TestConnection }, async (c, { body }) => {
      c.body = await testIntegration(rt, c.params.id, body.config);
    }),
  );

  router.post(
    '/integrations/test',
    auth.admin(),
    about({ summary: 'Test connection of a config not saved yet: read the first page (batch), store nothing', answer: '{ok: true, fields, sample, records}, or 422 saying what went wrong' }), everyDashboard,
    adminJson(),
    validate({ body: TestUnsavedConnection }, async (c, { body }) => {
      c.body = await testUnsaved(rt, body.type, body.config);
    }),
  );

  router.delete('/integrations/:id', auth.admin(), about({ summary: 'Delete an integration with its data source and records', answer: '{success: true}', activity: activity('integration.deleted', 'integration', 'deleted integration', 'param:id') }), everyDashboard, integrationId, async (c) => {
    await deleteIntegration(rt, c.params.id);
    c.body = { success: true };
  });

  router.post(
    '/integrations/:id/sync',
    auth.admin(),
    about({ summary: 'Start a sync ({full: true} reads everything again; Zendesk: startDate in unix seconds for a first sync)', answer: '{status}', status: 202, activity: activity('sync.started', 'integration', 'started a sync of integration', 'param:id') }), everyDashboard,
    integrationId,
    adminJson(),
    validate({ body: StartSync }, async (c, { body }) => {
      const { response } = await startSync(rt, c.params.id, body);
      c.status = 202;
      c.body = response;
    }),
  );

  router.get('/integrations/:id/sync-status', auth.admin(), about({ summary: 'A sync\'s progress', answer: '{isRunning, progress, recordsProcessed, pagesProcessed, errors}' }), everyDashboard, integrationId, async (c) => {
    c.body = await syncStatus(rt, c.params.id);
  });

  router.get('/integrations/:id/runs', auth.admin(), about({ summary: 'The last 100 sync runs, newest first', answer: 'IntegrationRun[]' }), everyDashboard, integrationId, async (c) => {
    await requireIntegration(rt, c.params.id);
    c.body = await listRuns(rt, c.params.id);
  });

  router.get('/integrations/:id/records', auth.admin(), about({ summary: 'What an integration has synced: Zendesk\'s totals per kind, or the records of its data source', answer: '{totalRecords} or {totalTickets, totalUsers, totalOrganizations, totalCustomStatuses}' }), everyDashboard, integrationId, async (c) => {
    c.body = await recordsSummary(rt, c.params.id);
  });

  router.put('/integrations/:id/settings', auth.admin(), about({ summary: 'Auto sync on or off and its interval', answer: 'Integration', activity: activity('integration.updated', 'integration', 'updated settings of integration', 'param:id') }), everyDashboard, integrationId, adminJson(), validate({ body: IntegrationSettings }, async (c, { body }) => {
    c.body = await updateSettings(rt, c.params.id, body);
  }));

  return router;
}
