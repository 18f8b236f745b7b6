import type { DataSourceDto, FieldType } from '@common/schemas/dataSource';
import type { DashboardDto, DashboardTab, PublicTabDto, PublicDashboardSummaryDto } from '@common/schemas/dashboard';
import type { DashboardFilter } from '@common/schemas/widgets/dashboardFilter';
import type { RecordDto } from '@common/schemas/records/record';
import { sourceKind } from '@common/constants';
import { decodeKeys, decodeRecordKeys } from '../db/fieldNames';
import type { DashboardDoc, DataSourceDoc, RecordDoc } from '.';
import { settledRevision } from './ingestJournal';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : new Date(0).toISOString());

/** The fields of a data source that may leave the server (never the ingest key hash). */
export function presentDataSource(ds: DataSourceDoc): DataSourceDto {
  return {
    id: String(ds._id),
    sourceId: ds.sourceId,
    name: ds.name,
    description: ds.description ?? '',
    primaryKey: ds.primaryKey ?? null,
    appendOnly: ds.appendOnly ?? false,
    timeField: ds.timeField ?? null,
    updateMode: ds.updateMode === 'merge' ? 'merge' : 'replace',
    retention: presentRetention(ds.retention),
    fieldTypes: { ...decodeKeys((ds.fieldTypes ?? {}) as Record<string, FieldType>), ...decodeKeys((ds.fieldTypesSet ?? {}) as Record<string, FieldType>) },
    fieldTypesSet: decodeKeys((ds.fieldTypesSet ?? {}) as Record<string, FieldType>),
    dateOrder: ds.dateOrder === 'dmy' ? 'dmy' : 'mdy',
    keyMappings: decodeKeys((ds.keyMappings ?? {}) as Record<string, string>),
    fields: [...(ds.fields ?? [])],
    recordCount: ds.recordCount ?? 0,
    revision: settledRevision(ds),
    isActive: true,
    ingestKeyHint: sourceKind(ds.sourceId) === 'custom' ? (ds.ingestKeyHint ?? null) : null,
    integrationId: ds.integrationId ?? null,
    createdAt: iso(ds.createdAt),
    updatedAt: iso(ds.updatedAt),
  };
}

function presentRetention(r: unknown): DataSourceDto['retention'] {
  const { maxRecords, maxAgeSeconds } = (r ?? {}) as { maxRecords?: number | null; maxAgeSeconds?: number | null };
  return { maxRecords: maxRecords ?? null, maxAgeSeconds: maxAgeSeconds ?? null };
}

/** A record as the public view, raw viewer and realtime deltas show it. */
export function presentRecord(r: RecordDoc): RecordDto {
  return {
    id: String(r._id),
    recordId: r.recordId,
    data: decodeRecordKeys((r.data ?? {}) as Record<string, unknown>),
    keyOrder: [...(r.keyOrder ?? [])],
    createdAt: iso(r.createdAt),
    lastUpdated: iso(r.lastUpdated),
    revision: r.revision ?? 0,
  };
}

interface StoredConfiguration {
  keyMappings?: Record<string, string>;
  refreshInterval?: number;
  tabs?: DashboardTab[];
  filters?: DashboardFilter[];
}

export function dashboardConfiguration(d: DashboardDoc): DashboardDto['configuration'] {
  const c = decodeKeys((d.configuration ?? {}) as StoredConfiguration);
  return { keyMappings: c.keyMappings ?? {}, refreshInterval: c.refreshInterval ?? 30_000, tabs: c.tabs ?? [], filters: c.filters ?? [] };
}

/** A dashboard for the admin endpoints. */
export function presentDashboard(d: DashboardDoc, dataSourceName: string | null): DashboardDto {
  return {
    id: String(d._id),
    name: d.name,
    description: d.description ?? '',
    dataSourceId: d.dataSourceId ?? null,
    dataSourceName,
    isPublished: Boolean(d.isPublished),
    configuration: dashboardConfiguration(d),
    revision: d.revision ?? 0,
    version: d.version ?? 0,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
}

/** A tab as the public viewer reads it: the editor's `style` is the viewer's `type`. */
export function presentPublicTab(t: DashboardTab): PublicTabDto {
  return { id: t.id, name: t.name, type: t.style ?? null, configuration: t.configuration ?? {}, widgets: t.widgets ?? [] };
}

export function presentPublicSummary(d: DashboardDoc, lastDataUpdate: Date | null): PublicDashboardSummaryDto {
  return {
    id: String(d._id),
    name: d.name,
    description: d.description ?? '',
    dataSourceId: d.dataSourceId ?? null,
    isPublished: true,
    updatedAt: iso(d.updatedAt),
    lastDataUpdate: lastDataUpdate ? iso(lastDataUpdate) : null,
  };
}
