import type { ActivityObjectType } from '@common/schemas/activity';

/** What a successful call of an admin or ingest route means in the activity log. */
export interface RouteActivity {
  kind: string;
  objectType: ActivityObjectType | null;
  verb: string;
  /** Where the object's id is: a path parameter, or the answer (`id` / `link.id`), or the request body. */
  idFrom: 'param:id' | 'param:linkId' | 'answer' | 'answer:link' | 'body:integrationId' | 'none';
}

const r = (kind: string, objectType: ActivityObjectType | null, verb: string, idFrom: RouteActivity['idFrom']): RouteActivity => ({ kind, objectType, verb, idFrom });

/**
 * Admin actions by `METHOD /api/path` (the matched route). Reads are not logged; publish and
 * unpublish come from the dashboard's domain event, which knows the state before the change.
 */
export const ROUTE_ACTIVITY: Record<string, RouteActivity> = {
  'POST /api/admin/data-sources': r('dataSource.created', 'dataSource', 'created data source', 'answer'),
  'PATCH /api/admin/data-sources/:id': r('dataSource.updated', 'dataSource', 'updated data source', 'param:id'),
  'POST /api/admin/data-sources/:id/ingest-key': r('dataSource.keyRotated', 'dataSource', 'rotated the ingest key of data source', 'param:id'),
  'DELETE /api/admin/data-sources/:id': r('dataSource.deleted', 'dataSource', 'deleted data source', 'param:id'),
  'POST /api/admin/dashboards': r('dashboard.created', 'dashboard', 'created dashboard', 'answer'),
  'PATCH /api/admin/dashboards/:id': r('dashboard.updated', 'dashboard', 'updated dashboard', 'param:id'),
  'DELETE /api/admin/dashboards/:id': r('dashboard.deleted', 'dashboard', 'deleted dashboard', 'param:id'),
  'PUT /api/admin/dashboards/:id/embedding': r('dashboard.embeddingChanged', 'dashboard', 'changed the embedding origins of dashboard', 'param:id'),
  'POST /api/admin/dashboards/:id/links': r('shareLink.created', 'shareLink', 'created share link', 'answer:link'),
  'DELETE /api/admin/dashboards/:id/links/:linkId': r('shareLink.revoked', 'shareLink', 'revoked share link', 'param:linkId'),
  'POST /api/integrations': r('integration.created', 'integration', 'created integration', 'answer'),
  'POST /api/integrations/zendesk/config': r('integration.configured', 'integration', 'configured OAuth of integration', 'body:integrationId'),
  'PUT /api/integrations/:id/settings': r('integration.updated', 'integration', 'updated settings of integration', 'param:id'),
  'DELETE /api/integrations/:id': r('integration.deleted', 'integration', 'deleted integration', 'param:id'),
  'POST /api/integrations/:id/sync': r('sync.started', 'integration', 'started a sync of integration', 'param:id'),
  'POST /api/admin/alerts': r('alert.created', 'alert', 'created alert', 'answer'),
  'PATCH /api/admin/alerts/:id': r('alert.updated', 'alert', 'updated alert', 'param:id'),
  'DELETE /api/admin/alerts/:id': r('alert.deleted', 'alert', 'deleted alert', 'param:id'),
  'POST /api/admin/alerts/:id/test': r('alert.tested', 'alert', 'sent a test message of alert', 'param:id'),
  'POST /api/data/ingest': r('ingest', 'dataSource', 'ingested into data source', 'none'),
  'POST /api/data/sources/:sourceId/records': r('ingest', 'dataSource', 'ingested into data source', 'none'),
};
