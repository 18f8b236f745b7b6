import { Form, Segmented, Select } from 'antd';
import { BUCKET_DEFAULT_WIDTH, COLUMN_DEFAULT_WIDTH } from '@common/constants';
import type { TabConfiguration, TableColumn } from '@common/schemas/dashboard';
import { FIELD_SEARCH } from '../ui/fieldSearch';
import { BUCKET_ORDER_LABELS, bucketKeyOf, bucketOrderOf, type BucketOrder } from '../../public/viewer/bucketModel';

interface Props {
  type: 'table' | 'bucket';
  configuration: TabConfiguration;
  fields: string[];
  label(field: string): string;
  /** Problems by path ("configuration.bucketKey" → message). */
  problems: Record<string, string>;
  onChange(configuration: TabConfiguration): void;
}

/** The columns a table widget shows, in the order they were picked (a column keeps its width and format). */
export function pickColumns(columns: TableColumn[] | undefined, names: string[]): TableColumn[] {
  return names.map((name, order) => ({ width: COLUMN_DEFAULT_WIDTH, ...columns?.find((c) => c.name === name), name, visible: true, order }));
}

const pickedColumns = (c: TabConfiguration) =>
  (c.columns ?? []).map((col, i) => ({ ...col, order: col.order ?? i })).filter((col) => col.visible !== false).sort((a, b) => a.order - b.order).map((col) => col.name);

/** The settings of a table widget (its columns) or a bucket widget (bucket key, fields on each card), as a tab has them. */
export function RecordsWidgetFields({ type, configuration: c, fields, label, problems, onChange }: Props) {
  const options = fields.map((f) => ({ value: f, label: label(f) }));
  const item = (path: string, title: string, control: React.ReactNode, extra?: string) => (
    <Form.Item label={title} validateStatus={problems[`configuration.${path}`] ? 'error' : undefined} help={problems[`configuration.${path}`]} extra={extra}>
      {control}
    </Form.Item>
  );
  if (type === 'table') {
    return item('columns', 'Columns', (
      <Select
        aria-label="Columns"
        mode="multiple"
        allowClear
        showSearch={FIELD_SEARCH}
        placeholder="Every field"
        value={pickedColumns(c)}
        onChange={(names: string[]) => onChange({ ...c, columns: pickColumns(c.columns, names) })}
        options={options}
      />
    ), 'Shown in the order picked; none picked shows every field.');
  }
  return (
    <>
      {item('bucketKey', 'Bucket key', (
        <Select
          aria-label="Bucket key"
          allowClear
          showSearch={FIELD_SEARCH}
          placeholder="Select a column for bucketing"
          value={bucketKeyOf(c) || undefined}
          // A tab's first bucket setting names the key too: keep the two in step.
          onChange={(v?: string) => onChange({ ...c, bucketKey: v ?? null, buckets: v ? [{ width: BUCKET_DEFAULT_WIDTH, ...c.buckets?.[0], key: v }] : [] })}
          options={options}
        />
      ))}
      {item('bucketOrder', 'Column order', (
        <Segmented aria-label="Column order" value={bucketOrderOf(c)} onChange={(v) => onChange({ ...c, bucketOrder: v })} options={Object.entries(BUCKET_ORDER_LABELS).filter(([v]) => v !== 'custom' || c.bucketOrder === 'custom').map(([value, l]) => ({ value: value as BucketOrder, label: l }))} />
      ), 'Groups keep this order as records change.')}
      {item('displayKeys', 'Fields on each card', (
        <Select aria-label="Fields on each card" mode="multiple" allowClear showSearch={FIELD_SEARCH} placeholder="The record ID" value={c.displayKeys ?? []} onChange={(v: string[]) => onChange({ ...c, displayKeys: v })} options={options} />
      ), 'Shown in the order picked.')}
    </>
  );
}
