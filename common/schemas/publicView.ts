import type { DateOrder, FieldType, KeyMappings } from './dataSource';
import type { PublicTabDto } from './dashboard';
import type { DashboardFilter } from './widgets/dashboardFilter';
import type { RecordDto } from './records/record';

/** GET /api/dashboards/:id — everything the public viewer draws. */
export interface PublicDashboardResponse {
  dashboard: {
    id: string;
    name: string;
    description: string;
    dataSourceId: string | null;
    isPublished: boolean;
    configuration: { keyMappings: KeyMappings; refreshInterval: number; filters?: DashboardFilter[] };
    createdAt: string;
    updatedAt: string;
  };
  tabs: PublicTabDto[];
  /**
   * The source's name, labels and type model (each field's type, how numeric dates read); never
   * its sourceId (the ingest target) — public pages do not need it.
   */
  dataSource: {
    id: string; name: string; primaryKey: string | null; keyMappings: KeyMappings;
    fieldTypes: Record<string, FieldType>; dateOrder: DateOrder;
    /** The time field (a path) and append-only flag: with either, the table's default order is newest first (common/time/recordTime). */
    timeField: string | null; appendOnly: boolean;
  } | null;
  records: RecordDto[];
  /** The data source's revision these records reflect (realtime deltas continue from it). */
  revision: number;
  /** True when the source holds more records than the server's view limit. */
  truncated: boolean;
}
