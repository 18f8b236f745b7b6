import type { DashboardDto } from '@common/schemas/dashboard';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { presentPublicTab } from '../core';

export type PublicHead = Pick<PublicDashboardResponse, 'dashboard' | 'tabs' | 'dataSource'>;

/**
 * The public view's head (dashboard, tabs, source labels) from the admin DTOs the domain events
 * carry, so a cached view needs no database read; `publicDashboardHead` presents documents through it.
 */
export function presentPublicHeadFromDtos(dashboard: DashboardDto, dataSource: DataSourceDto | null): PublicHead {
  const config = dashboard.configuration;
  return {
    dashboard: {
      id: dashboard.id,
      name: dashboard.name,
      description: dashboard.description,
      dataSourceId: dashboard.dataSourceId,
      isPublished: dashboard.isPublished,
      configuration: { keyMappings: config.keyMappings, refreshInterval: config.refreshInterval, filters: config.filters ?? [] },
      createdAt: dashboard.createdAt,
      updatedAt: dashboard.updatedAt,
    },
    tabs: config.tabs.map(presentPublicTab),
    dataSource: dataSource
      ? {
          id: dataSource.id,
          name: dataSource.name,
          primaryKey: dataSource.primaryKey,
          keyMappings: { ...dataSource.keyMappings, ...config.keyMappings },
          timeField: dataSource.timeField,
          appendOnly: dataSource.appendOnly,
          fieldTypes: dataSource.fieldTypes,
          dateOrder: dataSource.dateOrder,
        }
      : null,
  };
}

/**
 * The public view as JSON, with the records already serialized (`recordsJson`): the same text
 * `JSON.stringify(publicDashboardView(…))` gives (same key order), built without re-serializing every record.
 */
export function serializePublicView(head: PublicHead, recordsJson: string, revision: number, truncated: boolean): string {
  const h = JSON.stringify(head);
  return `${h.slice(0, -1)},"revision":${revision},"records":${recordsJson},"truncated":${truncated}}`;
}
