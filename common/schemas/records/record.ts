/** One custom field value of a record (support-desk style). */
export interface CustomFieldValue {
  id: string | number;
  value: unknown;
}

/** A record as the public view, the raw viewer and realtime deltas carry it. */
export interface RecordDto {
  id: string;
  recordId: string;
  data: Record<string, unknown>;
  keyOrder: string[];
  createdAt: string;
  lastUpdated: string;
  revision: number;
}

export interface RawDataResponse {
  dataSource: { id: string; sourceId: string; name: string; primaryKey: string | null };
  records: RecordDto[];
  total: number;
  limit: number;
  offset: number;
  /** The source revision the page reflects at least: pushed deltas after it apply on top. */
  revision: number;
}
