import { Flex, Input, Select } from 'antd';
import { useMemo } from 'react';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { useDashboards } from '../stores/dashboards';
import { useDataSources, useSourceTyping } from '../stores/dataSources';
import { FieldSelect, pickerFields } from './FieldSelect';

export interface LockDraft {
  field?: string;
  operator: 'eq' | 'in' | 'gte' | 'lte' | 'contains';
  value: string;
}
const OPERATORS = [
  { value: 'eq', label: 'is' }, { value: 'in', label: 'is one of (comma-separated)' }, { value: 'contains', label: 'contains' },
  { value: 'gte', label: 'at least' }, { value: 'lte', label: 'at most' },
];

/** The locked filters a draft makes (none without a field): "is one of" splits its value at commas. */
export function lockedFilters(d: LockDraft): WidgetFilter[] {
  if (!d.field) return [];
  if (d.operator === 'in') return [{ field: d.field, operator: 'in', value: '', values: d.value.split(',').map((v) => v.trim()).filter(Boolean) }];
  return [{ field: d.field, operator: d.operator, value: d.value.trim() }];
}

/** One locked filter of a new share link: a field of the dashboard's source (with its type), an operator and a value. */
export function LockedFilterInput({ dashboardId, value, onChange }: { dashboardId: string; value: LockDraft; onChange(next: LockDraft): void }) {
  const sourceId = useDashboards((s) => s.items.find((d) => d.id === dashboardId)?.dataSourceId ?? null);
  const source = useDataSources((s) => s.items.find((d) => d.id === sourceId));
  const typing = useSourceTyping(source);
  const fields = useMemo(() => pickerFields(source?.fields ?? [], typing), [source?.fields, typing]);
  return (
    <Flex gap={6} wrap>
      <FieldSelect aria-label="Locked filter field" allowClear placeholder="None: the whole dashboard" style={{ minWidth: 200 }} value={value.field} onChange={(f) => onChange({ ...value, field: (f as string | undefined) ?? undefined })} fields={fields} typing={typing} label={(f) => source?.keyMappings[f] ?? f} />
      {value.field && (
        <>
          <Select aria-label="Locked filter operator" style={{ width: 200 }} value={value.operator} onChange={(operator) => onChange({ ...value, operator })} options={OPERATORS} />
          <Input aria-label="Locked filter value" style={{ width: 200 }} value={value.value} onChange={(e) => onChange({ ...value, value: e.target.value })} placeholder="Value" />
        </>
      )}
    </Flex>
  );
}
