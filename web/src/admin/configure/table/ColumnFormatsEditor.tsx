import { Input, Select, Table, Typography } from 'antd';
import { KNOWN_ORDERS } from '@common/enumOrder';
import { COLUMN_FORMAT_LABELS, COLUMN_FORMATS, type ColumnFormat } from '@common/formats';
import type { TableColumn } from '@common/schemas/dashboard';

interface Props {
  columns: TableColumn[];
  labelOf(name: string): string;
  onChange(columns: TableColumn[]): void;
}

/**
 * Per column: how its values read (automatic, text, number, date, currency, percent — in the viewer
 * and the CSV alike) and the order it sorts by (by meaning for known enums, or one you list).
 */
export function ColumnFormatsEditor({ columns, labelOf, onChange }: Props) {
  const patch = (name: string, p: Partial<TableColumn>) => onChange(columns.map((c) => (c.name === name ? { ...c, ...p } : c)));
  return (
    <Table<TableColumn>
      size="small"
      data-testid="column-formats"
      pagination={false}
      rowKey="name"
      dataSource={columns}
      scroll={{ x: 640 }}
      title={() => <Typography.Text strong>Column formats and sort order</Typography.Text>}
      columns={[
        { title: 'Column', key: 'name', width: 180, render: (_, c) => <span title={c.name}>{labelOf(c.name)}</span> },
        {
          title: 'Format',
          key: 'format',
          width: 190,
          render: (_, c) => (
            <Select<ColumnFormat>
              size="small"
              style={{ width: '100%' }}
              aria-label={`Format of ${labelOf(c.name)}`}
              value={c.format ?? 'auto'}
              options={COLUMN_FORMATS.map((f) => ({ value: f, label: COLUMN_FORMAT_LABELS[f] }))}
              onChange={(format) => patch(c.name, { format: format === 'auto' ? undefined : format, currency: format === 'currency' ? c.currency ?? 'USD' : undefined })}
            />
          ),
        },
        {
          title: 'Currency',
          key: 'currency',
          width: 100,
          render: (_, c) =>
            c.format === 'currency' ? (
              <Input
                size="small"
                maxLength={3}
                aria-label={`Currency of ${labelOf(c.name)}`}
                value={c.currency ?? 'USD'}
                onChange={(e) => patch(c.name, { currency: e.target.value.toUpperCase() })}
              />
            ) : <Typography.Text type="secondary">-</Typography.Text>,
        },
        {
          title: 'Sort order (first on top)',
          key: 'sortOrder',
          render: (_, c) => {
            const known = KNOWN_ORDERS[c.name.toLowerCase()];
            return (
              <Select
                size="small"
                mode="tags"
                style={{ width: '100%', minWidth: 200 }}
                aria-label={`Sort order of ${labelOf(c.name)}`}
                value={c.sortOrder ?? []}
                placeholder={known ? `By meaning: ${known.join(' > ')}` : 'Alphabetical / numeric'}
                onChange={(sortOrder: string[]) => patch(c.name, { sortOrder: sortOrder.length ? sortOrder : undefined })}
                tokenSeparators={[',']}
              />
            );
          },
        },
      ]}
    />
  );
}
