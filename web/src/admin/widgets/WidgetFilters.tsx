import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Select, Typography } from 'antd';
import { FILTER_OPERATORS, MAX_FILTER_VALUES, MAX_WIDGET_FILTERS } from '@common/schemas/widgets/widget';
import type { FieldTyping } from '@common/types/fieldTyping';
import { cleanPickedValues, distinctValues } from '@common/widgets/templateValues';
import { useWidgetEnv } from '../../public/viewer/widgets/widgetContext';
import { FieldSelect } from '../ui/FieldSelect';

type Filter = { field?: string; operator?: string; value?: string; values?: string[] };
const OPERATOR_LABELS: Record<(typeof FILTER_OPERATORS)[number], string> = { eq: 'is', neq: 'is not', gt: 'greater than', gte: 'at least', lt: 'less than', lte: 'at most', contains: 'contains', in: 'is one of' };

/** A chart widget's filters: a record counts when it matches all of them; each problem under its control. */
export function WidgetFilters({ filters, fields, typing, label, problems, onChange }: {
  filters: Filter[]; fields: string[]; typing: FieldTyping; label(field: string): string; problems: Record<string, string>; onChange(filters: Filter[]): void;
}) {
  // The preview's records (the builder's widget context): the values an "is one of" filter offers.
  const { feed } = useWidgetEnv();
  const set = (i: number, patch: Filter) => onChange(filters.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const problem = (i: number, key: string) => Object.entries(problems).find(([path]) => path.startsWith(`configuration.filters.${i}.${key}`))?.[1];
  const item = (i: number, key: string, title: string, control: React.ReactNode, style?: React.CSSProperties, extra?: string) => (
    <Form.Item label={title} style={style} validateStatus={problem(i, key) ? 'error' : undefined} help={problem(i, key)} extra={extra}>{control}</Form.Item>
  );
  return (
    <>
      <Typography.Text strong>Filters (optional)</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>A record counts when it matches every filter.</Typography.Paragraph>
      {filters.map((filter, i) => {
        const n = filters.length > 1 ? ` ${i + 1}` : '';
        const oneOf = filter.operator === 'in';
        // Switching to or from "is one of" carries the value over (one value ↔ the first of the list).
        const setOperator = (operator: string) =>
          operator === 'in'
            ? set(i, { operator, value: '', values: filter.values?.length ? filter.values : filter.value?.trim() ? [filter.value.trim()] : [] })
            : set(i, { operator, value: oneOf ? (filter.values?.[0] ?? '') : (filter.value ?? ''), values: undefined });
        const seen = oneOf && filter.field ? distinctValues([...feed.get().records.values()].map((r) => r.data), filter.field) : [];
        return (
          <Flex key={i} gap={8} wrap align="flex-start" data-testid="widget-filter">
            {item(i, 'field', 'Field', <FieldSelect aria-label={`Filter${n} field`} style={{ minWidth: 160 }} value={filter.field || undefined} onChange={(v) => set(i, { field: v ?? '' })} fields={fields} typing={typing} label={label} />)}
            {item(i, 'operator', 'Operator', <Select aria-label={`Filter${n} operator`} style={{ minWidth: 130 }} value={filter.operator ?? 'eq'} onChange={setOperator} options={FILTER_OPERATORS.map((v) => ({ value: v, label: OPERATOR_LABELS[v] }))} />)}
            {!oneOf && item(i, 'value', 'Value', <Input aria-label={`Filter${n} value`} value={filter.value ?? ''} onChange={(e) => set(i, { value: e.target.value })} />)}
            {oneOf && item(i, 'values', 'Values', (
              <Select
                aria-label={`Filter${n} values`}
                mode="tags"
                tokenSeparators={[',']}
                maxCount={MAX_FILTER_VALUES}
                placeholder="Pick or type values"
                value={filter.values ?? []}
                onChange={(v: string[]) => set(i, { values: cleanPickedValues(v, seen.map((x) => x.value)) })}
                options={seen.map((v) => ({ value: v.value, label: v.value, count: v.count }))}
                optionRender={(o) => <Flex justify="space-between" gap={8}><span>{o.label}</span><Typography.Text type="secondary" style={{ marginInlineEnd: 8 }}>{o.data.count}</Typography.Text></Flex>}
              />
            ), { minWidth: 260, flex: 1 }, filter.field && seen.length === 0 ? 'No values of this field in the preview records: type them.' : 'Values seen in the preview records, most frequent first; type to add others.')}
            <Form.Item label=" "><Button aria-label={`Remove filter${n}`} icon={<DeleteOutlined />} onClick={() => onChange(filters.filter((_, j) => j !== i))} /></Form.Item>
          </Flex>
        );
      })}
      {filters.length < MAX_WIDGET_FILTERS && <Button icon={<PlusOutlined />} onClick={() => onChange([...filters, { field: '', operator: 'eq', value: '' }])}>Add filter</Button>}
    </>
  );
}
