import { Typography } from 'antd';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { useEngineStatus } from '../engine/useEngineStatus';

const UNITS: [number, string][] = [[86_400, 'day'], [3_600, 'hour'], [60, 'minute'], [1, 'second']];

/** 86400 → "1 day", 5400 → "90 minutes": the largest unit that divides it. */
export function durationText(seconds: number): string {
  const [size, unit] = UNITS.find(([s]) => seconds % s === 0)!;
  const n = seconds / size;
  return `${n.toLocaleString()} ${unit}${n === 1 ? '' : 's'}`;
}

/** What a source keeps: its limits, or the append-only default, or everything. */
export function retentionText(ds: DataSourceDto, appendOnlyDefault: number | null): string {
  const parts: string[] = [];
  const { maxRecords, maxAgeSeconds } = ds.retention;
  if (maxRecords) parts.push(`newest ${maxRecords.toLocaleString()} records`);
  else if (ds.appendOnly && appendOnlyDefault) parts.push(`newest ${appendOnlyDefault.toLocaleString()} records (append-only default)`);
  if (maxAgeSeconds) parts.push(`records younger than ${durationText(maxAgeSeconds)}`);
  return parts.length ? `Keeps the ${parts.join(' and ')}` : 'Keeps every record';
}

/** The card's line on the time field and retention. */
export function RetentionRow({ dataSource: ds }: { dataSource: DataSourceDto }) {
  const appendOnlyDefault = useEngineStatus((s) => s.status?.appendOnlyDefaultMaxRecords ?? null);
  return (
    <div style={{ margin: '4px 0' }}>
      <span data-testid="time-field" style={{ marginRight: 16 }}>
        <Typography.Text type="secondary">Time field: </Typography.Text>
        {ds.timeField ? <Typography.Text code>{ds.timeField}</Typography.Text> : <Typography.Text italic>{ds.appendOnly ? 'received time' : 'Not set'}</Typography.Text>}
      </span>
      <span data-testid="retention">
        <Typography.Text type="secondary">Retention: </Typography.Text>
        {retentionText(ds, appendOnlyDefault)}
      </span>
    </div>
  );
}
