import { Empty, Flex, Modal, Select, Table, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { DataSourceDto, DateOrder, FieldType } from '@common/schemas/dataSource';
import { fieldLabel } from '@common/formats';
import { api } from '../../api/client';
import { useDataSources, useSourceTyping } from '../stores/dataSources';
import { FIELD_TYPE_LABELS, pickerFields } from '../ui/FieldSelect';
import { useToastSubmit } from '../ui/toast';

const AUTOMATIC = '';
const TYPES = Object.keys(FIELD_TYPE_LABELS) as FieldType[];

/**
 * A source's fields (the type model, common/types): each field or nested leaf path with the type
 * inferred from its records, and a select to set one (a set type wins over the inferred one and
 * stays through later ingests; "Automatic" returns to the inferred type). Also how the source
 * writes numeric dates (01/02/2024). Saved with PATCH /api/admin/data-sources/:id
 * {fieldTypes: {path: type | null}, dateOrder}.
 */
export function FieldTypesDialog({ dataSource, onClose }: { dataSource: DataSourceDto | null; onClose(): void }) {
  const live = useDataSources((s) => s.items.find((d) => d.id === dataSource?.id)) ?? dataSource;
  // The closing dialog keeps showing the source it was opened for.
  const last = useRef(live);
  if (live) last.current = live;
  const shown = live ?? last.current;
  const typing = useSourceTyping(shown);
  const [draft, setDraft] = useState<Record<string, FieldType | typeof AUTOMATIC>>({});
  const [dateOrder, setDateOrder] = useState<DateOrder>(shown?.dateOrder ?? 'mdy');
  const submit = useToastSubmit();
  useEffect(() => {
    setDraft({});
    setDateOrder(dataSource?.dateOrder ?? 'mdy');
  }, [dataSource?.id, dataSource?.dateOrder]);

  const rows = useMemo(() => (shown ? pickerFields(shown.fields, typing) : []).map((path) => ({
    path,
    set: shown?.fieldTypesSet[path],
    inferred: shown && !Object.prototype.hasOwnProperty.call(shown.fieldTypesSet, path) ? shown.fieldTypes[path] : undefined,
  })), [shown, typing]);

  const changes = Object.entries(draft).filter(([path, v]) => (v || undefined) !== shown?.fieldTypesSet[path]);
  const dirty = changes.length > 0 || dateOrder !== shown?.dateOrder;

  const save = async () => {
    if (!dataSource) return;
    await submit.run(async () => {
      const fieldTypes = Object.fromEntries(changes.map(([path, v]) => [path, v || null]));
      const updated = await api.patch<DataSourceDto>(`/api/admin/data-sources/${encodeURIComponent(dataSource.id)}`, {
        ...(changes.length ? { fieldTypes } : {}),
        ...(dateOrder !== dataSource.dateOrder ? { dateOrder } : {}),
      });
      useDataSources.getState().upsert(updated);
      onClose();
    }, { success: 'Field types saved', failure: 'Error' });
  };

  return (
    <Modal
      open={Boolean(dataSource)}
      title={`Fields of ${shown?.name ?? 'the data source'}`}
      okText="Save"
      okButtonProps={{ disabled: !dirty }}
      confirmLoading={submit.busy}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
      width={680}
    >
      <Typography.Paragraph type="secondary">
        Each field's type is inferred from a sample of its records; set one where the guess is wrong. Tables, cards, charts, filters and the CSV export read values by it.
      </Typography.Paragraph>
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <Typography.Text>Numeric dates such as 01/02/2024 are</Typography.Text>
        <Select
          aria-label="Date order"
          value={dateOrder}
          onChange={setDateOrder}
          style={{ minWidth: 240 }}
          options={[{ value: 'mdy', label: 'month/day/year (January 2)' }, { value: 'dmy', label: 'day/month/year (1 February)' }]}
        />
      </Flex>
      {rows.length === 0 ? (
        <Empty description="No fields yet: ingest data first." />
      ) : (
        <Table
          data-testid="field-types"
          size="small"
          rowKey="path"
          pagination={false}
          scroll={{ y: 380 }}
          dataSource={rows}
          columns={[
            {
              title: 'Field',
              dataIndex: 'path',
              render: (path: string) => (
                <Flex vertical>
                  {fieldLabel(path, shown?.keyMappings) !== path && <Typography.Text strong>{fieldLabel(path, shown?.keyMappings)}</Typography.Text>}
                  <Typography.Text code>{path}</Typography.Text>
                </Flex>
              ),
            },
            {
              title: 'Type',
              width: 260,
              render: (_: unknown, row: (typeof rows)[number]) => {
                const value = draft[row.path] ?? row.set ?? AUTOMATIC;
                const inferred = row.inferred ? FIELD_TYPE_LABELS[row.inferred] : 'not known yet';
                return (
                  <Select
                    aria-label={`Type of ${row.path}`}
                    data-field={row.path}
                    style={{ width: '100%' }}
                    value={value}
                    onChange={(v: FieldType | typeof AUTOMATIC) => setDraft((d) => ({ ...d, [row.path]: v }))}
                    options={[
                      { value: AUTOMATIC, label: row.set ? 'Automatic (inferred)' : `Automatic: ${inferred}` },
                      ...TYPES.map((t) => ({ value: t, label: FIELD_TYPE_LABELS[t] })),
                    ]}
                  />
                );
              },
            },
          ]}
        />
      )}
    </Modal>
  );
}
