import { Button, Flex, Modal, Skeleton, Table, Tag, Typography } from 'antd';
import { TableOutlined } from '@ant-design/icons';
import { useEffect, useMemo, useState } from 'react';
import { CUSTOM_FIELD_PREFIX, PREVIEW_RECORDS, sourceKind } from '@common/constants';
import { fieldLabel } from '@common/formats';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/records/record';
import { customColumn, customFieldIds, fieldValue, FormattedValue, recordFields } from '../ui/cells';
import { useDataSources, useSourceTyping } from '../stores/dataSources';
import { FIELD_TYPE_LABELS } from '../ui/FieldSelect';
import { fieldTypeOf, typedFormat } from '@common/types/fieldTyping';
import { useSourceRecords } from '../stores/useSourceRecords';
import { EmptyState, LoadError, SECONDARY_TEXT } from '../ui/States';

/** Raw Data Viewer: the data structure first, then the first 10 records on demand. */
export function RawDataViewer({ dataSource, onClose }: { dataSource: DataSourceDto | null; onClose(): void }) {
  const live = useDataSources((s) => s.items.find((d) => d.id === dataSource?.id)) ?? dataSource;
  const { records, total, status, error, reload } = useSourceRecords(dataSource?.id ?? null);
  const [showRaw, setShowRaw] = useState(false);
  useEffect(() => setShowRaw(false), [dataSource?.id]);

  const custom = live ? sourceKind(live.sourceId) === 'custom' : true;
  const customIds = useMemo(() => customFieldIds(records), [records]);
  // One name per field, each field once: the record fields (integrations: their labelled fields),
  // then the custom fields not already among them, each titled by fieldLabel.
  // Each field with its type from the type model (nested objects stay one field here: this view shows the data's structure as sent).
  const typing = useSourceTyping(live);
  const fields = useMemo(() => {
    if (!live) return [];
    const keys = custom ? recordFields(records.slice(0, PREVIEW_RECORDS)) : Object.keys(live.keyMappings);
    const all = [...new Set([...keys, ...customIds.map(customColumn)])];
    return all.map((key) => ({ key, label: fieldLabel(key, live.keyMappings), type: fieldTypeOf(typing, key) }));
  }, [live, custom, records, customIds, typing]);

  const columns = fields.map((f) => ({
    key: f.key,
    title: f.label,
    width: f.key.startsWith(CUSTOM_FIELD_PREFIX) ? 160 : 200,
    render: (_: unknown, r: RecordDto) => <FormattedValue field={f.key} value={fieldValue(r.data, f.key)} column={typedFormat(typing, f.key)} />,
  }));

  let body: React.ReactNode;
  if (status === 'error') body = <LoadError title="Failed to fetch raw data" detail={error} onRetry={reload} />;
  else if (status !== 'ready') body = <Skeleton active />;
  else if (records.length === 0) body = <EmptyState title="No records available" />;
  else {
    body = (
      <>
        <Typography.Title level={5}>Data Structure</Typography.Title>
        <Flex wrap gap={8} data-testid="data-structure" style={{ marginBottom: 16 }}>
          {fields.map((f) => (
            <Tag key={f.key} style={{ padding: '4px 8px' }}>
              <div style={{ fontWeight: 600 }}>{f.label}</div>
              {f.label !== f.key && <div style={{ fontSize: 11, color: SECONDARY_TEXT }}>{f.key}</div>}
              {f.type && <div style={{ fontSize: 11, color: SECONDARY_TEXT }} data-field-type={f.type}>{FIELD_TYPE_LABELS[f.type]}</div>}
            </Tag>
          ))}
        </Flex>
        {!showRaw ? (
          <Button type="primary" icon={<TableOutlined />} onClick={() => setShowRaw(true)}>Show Raw Data</Button>
        ) : (
          <>
            <Table<RecordDto>
              data-testid="raw-table"
              size="small"
              rowKey="id"
              dataSource={records.slice(0, PREVIEW_RECORDS)}
              columns={columns}
              pagination={false}
              scroll={{ x: 'max-content', y: 420 }}
              tableLayout="fixed"
              style={{ wordBreak: 'break-word' }}
              bordered
            />
            <Flex vertical gap={2} style={{ marginTop: 8 }} data-testid="raw-footer">
              {total > PREVIEW_RECORDS && <Typography.Text type="secondary">Showing first {PREVIEW_RECORDS} records of {total} total records</Typography.Text>}
              {customIds.length > 0 && (
                <Typography.Text type="secondary">
                  {customIds.length} custom field{customIds.length === 1 ? '' : 's'} shown as "Custom Field &lt;id&gt;" columns
                </Typography.Text>
              )}
            </Flex>
          </>
        )}
      </>
    );
  }

  return (
    <Modal
      open={Boolean(dataSource)}
      title={live ? `${live.name} — Raw Data` : 'Raw Data'}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
      width={1000}
      destroyOnHidden
    >
      {live && (
        <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
          Source ID <Typography.Text code>{live.sourceId}</Typography.Text> · {total.toLocaleString()} records
        </Typography.Paragraph>
      )}
      {body}
    </Modal>
  );
}
