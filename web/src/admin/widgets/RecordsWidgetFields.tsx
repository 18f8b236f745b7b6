import { Form, Segmented } from 'antd';
import type { FieldTyping } from '@common/types/fieldTyping';
import { FieldSelect } from '../ui/FieldSelect';
import { BUCKET_DEFAULT_WIDTH, COLUMN_DEFAULT_WIDTH } from '@common/constants';
import type { TabConfiguration, TableColumn } from '@common/schemas/dashboard';
import { BUCKET_ORDER_LABELS, bucketKeyOf, bucketOrderOf, type BucketOrder } from '../../public/viewer/buckets/bucketModel';

interface Props {
  type: 'table' | 'bucket';
  configuration: TabConfiguration;
  fields: string[];
  typing: FieldTyping;
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
export function RecordsWidgetFields({ type, configuration: c, fields, typing, label, problems, onChange }: Props) {
  const pick = { fields, typing, label };
  const item = (path: string, title: string, control: React.ReactNode, extra?: string) => (
    <Form.Item label={title} validateStatus={problems[`configuration.${path}`] ? 'error' : undefined} help={problems[`configuration.${path}`]} extra={extra}>
      {control}
    </Form.Item>
  );
  if (type === 'table') {
    return item('columns', 'Columns', (
      <FieldSelect
        aria-label="Columns"
        mode="multiple"
        allowClear
        placeholder="Every field"
        value={pickedColumns(c)}
        onChange={(names: string[]) => onChange({ ...c, columns: pickColumns(c.columns, names) })}
        {...pick}
      />
    ), 'Shown in the order picked; none picked shows every field.');
  }
  return (
    <>
      {item('bucketKey', 'Bucket key', (
        <FieldSelect
          aria-label="Bucket key"
          allowClear
          placeholder="Select a column for bucketing"
          value={bucketKeyOf(c) || undefined}
          // A tab's first bucket setting names the key too: keep the two in step.
          onChange={(v?: string) => onChange({ ...c, bucketKey: v ?? null, buckets: v ? [{ width: BUCKET_DEFAULT_WIDTH, ...c.buckets?.[0], key: v }] : [] })}
          {...pick}
        />
      ))}
      {item('bucketOrder', 'Column order', (
        <Segmented aria-label="Column order" value={bucketOrderOf(c)} onChange={(v) => onChange({ ...c, bucketOrder: v })} options={Object.entries(BUCKET_ORDER_LABELS).filter(([v]) => v !== 'custom' || c.bucketOrder === 'custom').map(([value, l]) => ({ value: value as BucketOrder, label: l }))} />
      ), 'Groups keep this order as records change.')}
      {item('displayKeys', 'Fields on each card', (
        <FieldSelect aria-label="Fields on each card" mode="multiple" allowClear placeholder="The record ID" value={c.displayKeys ?? []} onChange={(v: string[]) => onChange({ ...c, displayKeys: v })} {...pick} />
      ), 'Shown in the order picked.')}
    </>
  );
}
