import { Card, Col, Flex, Form, InputNumber, Row, Segmented, Select, Skeleton, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { BUCKET_DEFAULT_WIDTH, BUCKET_MAX_WIDTH, BUCKET_MIN_WIDTH } from '@common/constants';
import type { DashboardTab, HighlightRule, TabConfiguration } from '@common/schemas/dashboard';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { useSourceRecords } from '../../stores/useSourceRecords';
import { useSourceTyping } from '../../stores/dataSources';
import { FIELD_TYPE_LABELS, FieldSelect, pickerFields } from '../../ui/FieldSelect';
import { fieldTypeOf } from '@common/types/fieldTyping';
import { customColumn, customFieldIds, fieldValue, recordFields, valueType } from '../../ui/cells';
import { EmptyState, LoadError } from '../../ui/States';
import { fieldLabel } from '@common/formats';
import { bucketWidth } from '../../../public/viewer/buckets/bucketModel';
import { BucketPreview } from './BucketPreview';
import { HighlightRulesEditor } from './HighlightRulesEditor';
import { useReportUnsaved } from '../unsavedEdits';
import { SaveBar } from '../SaveBar';
import { BUCKET_ORDER_LABELS, bucketOrderOf, groupIds, type BucketOrder } from '../../../public/viewer/buckets/bucketModel';
import { useSubmit } from '../../../api/useSubmit';

interface Props {
  tab: DashboardTab;
  dataSource: DataSourceDto | null;
  onConfig(config: TabConfiguration, toast?: string, message?: string): Promise<boolean>;
}

/** Bucket style editor: data structure, bucket key and width, display keys, highlight rules. */
export function BucketStyleEditor({ tab, dataSource, onConfig }: Props) {
  const { records, total, status, error, reload } = useSourceRecords(dataSource?.id ?? null);
  const config = tab.configuration ?? {};
  const [bucketKey, setBucketKey] = useState<string | null>(config.bucketKey ?? config.buckets?.[0]?.key ?? null);
  // As typed: a width out of range is said at the input and refused by Save, never changed silently.
  const [width, setWidth] = useState<number | null>(bucketWidth(config.buckets?.[0]?.width ?? BUCKET_DEFAULT_WIDTH));
  const [order, setOrder] = useState<BucketOrder>(bucketOrderOf(config));
  const [listed, setListed] = useState<string[]>(config.bucketGroups ?? []);
  const [displayKeys, setDisplayKeys] = useState<string[]>(config.displayKeys ?? []);
  const [rules, setRules] = useState<HighlightRule[]>(config.highlightRules ?? []);
  // The save says its outcome itself (useSaveTabs): this gives the busy flag and one save at a time.
  const submit = useSubmit();
  const [dirty, setDirty] = useState(false);
  useReportUnsaved(`${tab.id}:bucket`, tab.name, dirty, () => setDirty(false));

  // Follow the saved settings (e.g. pushed from another admin tab, or after Discard) while nothing is edited here.
  useEffect(() => {
    if (dirty) return;
    const c = tab.configuration ?? {};
    setBucketKey(c.bucketKey ?? c.buckets?.[0]?.key ?? null);
    setWidth(bucketWidth(c.buckets?.[0]?.width ?? BUCKET_DEFAULT_WIDTH));
    setOrder(bucketOrderOf(c));
    setListed(c.bucketGroups ?? []);
    setDisplayKeys(c.displayKeys ?? []);
    setRules(c.highlightRules ?? []);
  }, [tab.configuration, dirty]);
  const widthProblem = width === null || width < BUCKET_MIN_WIDTH || width > BUCKET_MAX_WIDTH ? `Bucket Width must be from ${BUCKET_MIN_WIDTH} to ${BUCKET_MAX_WIDTH} pixels` : undefined;
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    setDirty(true);
    set(v);
  };

  const typing = useSourceTyping(dataSource);
  // The records' fields, nested objects as their leaf paths from the type model.
  const columns = useMemo(() => pickerFields([...recordFields(records), ...customFieldIds(records).map(customColumn)], typing), [records, typing]);
  const first = records[0];
  const groupTitles = useMemo(() => (bucketKey ? [...groupIds(records, (r) => fieldValue(r.data, bucketKey), (r) => r.recordId).keys()] : []), [records, bucketKey]);
  const labels = dataSource?.keyMappings ?? {};

  const save = async (message?: string) => {
    if (widthProblem || width === null) return;
    await submit.run(async () => {
      const ok = await onConfig(
      {
        ...config,
        bucketKey: bucketKey ?? null,
        buckets: bucketKey ? [{ key: bucketKey, width }] : [],
        bucketOrder: order,
        bucketGroups: order === 'custom' ? listed : [],
        displayKeys,
        highlightRules: rules.filter((r) => r.key),
      },
      'Configuration Saved',
      message,
      );
      if (ok) setDirty(false);
    });
  };

  if (status === 'error') return <LoadError title="Failed to fetch raw data" detail={error} onRetry={reload} />;
  if (status !== 'ready') return <Skeleton active />;
  if (columns.length === 0) return <Card><EmptyState title="No data available to determine columns" /></Card>;

  return (
    <Row gutter={[16, 16]} data-testid="bucket-editor">
      <Col xs={24} xl={10}>
        <Card title="Data Structure" data-testid="bucket-structure">
          <Typography.Paragraph style={{ marginBottom: 4 }}><b>Source:</b> {dataSource?.name ?? 'No data source'}</Typography.Paragraph>
          <Typography.Paragraph style={{ marginBottom: 4 }}><b>Source ID:</b> <Typography.Text code>{dataSource?.sourceId ?? '-'}</Typography.Text></Typography.Paragraph>
          <Typography.Paragraph><b>Primary key:</b> {dataSource?.primaryKey ?? 'Not set'}</Typography.Paragraph>
          <Table
            size="small"
            pagination={false}
            rowKey="name"
            scroll={{ y: 360 }}
            dataSource={columns.map((name) => {
              const type = fieldTypeOf(typing, name);
              return { name, type: type ? FIELD_TYPE_LABELS[type] : valueType(first ? fieldValue(first.data, name) : undefined) };
            })}
            columns={[
              {
                title: 'Column',
                dataIndex: 'name',
                render: (name: string) => (
                  <Flex gap={6} align="center">
                    {fieldLabel(name, labels) !== name && <Typography.Text strong>{fieldLabel(name, labels)}</Typography.Text>}
                    <Typography.Text code>{name}</Typography.Text>
                    {name === dataSource?.primaryKey && <Tag color="gold">Primary Key</Tag>}
                  </Flex>
                ),
              },
              { title: 'Type', dataIndex: 'type', width: 100 },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        <Card
          title="Bucket Configuration"
          extra={<SaveBar dirty={dirty} saving={submit.busy} onSave={(m) => void save(m)} onDiscard={() => setDirty(false)} />}
          styles={{ header: { flexWrap: 'wrap', gap: 8, paddingBlock: 8 } }}
        >
          <Form layout="vertical">
            <Form.Item label="Bucket Key" extra="Records are grouped by the value of this column.">
              <FieldSelect
                allowClear
                placeholder="Select a column for bucketing"
                value={bucketKey ?? undefined}
                onChange={(v?: string) => edit(setBucketKey)(v ?? null)}
                fields={columns}
                typing={typing}
                label={(c) => fieldLabel(c, labels)}
                aria-label="Bucket Key"
              />
            </Form.Item>
            <Form.Item
              label="Bucket Width"
              validateStatus={widthProblem ? 'error' : undefined}
              help={widthProblem}
              extra={`Pixels, ${BUCKET_MIN_WIDTH} to ${BUCKET_MAX_WIDTH} (default ${BUCKET_DEFAULT_WIDTH}): the narrowest a column gets; columns share the rest of the row.`}
            >
              <InputNumber
                value={width}
                onChange={(v) => edit(setWidth)(typeof v === 'number' ? v : null)}
                aria-label="Bucket Width"
                style={{ width: 160 }}
              />
            </Form.Item>
            <Form.Item label="Column Order" extra="Groups stay in this order as records change.">
              <Segmented aria-label="Column Order" value={order} onChange={(v) => edit(setOrder)(v)} options={Object.entries(BUCKET_ORDER_LABELS).map(([value, label]) => ({ value: value as BucketOrder, label }))} />
            </Form.Item>
            {order === 'custom' && (
              <Form.Item label="Groups First" extra="These groups come first, in this order; the others follow by title.">
                <Select
                  mode="tags"
                  aria-label="Groups First"
                  placeholder="Pick or type group titles"
                  value={listed}
                  onChange={edit(setListed)}
                  options={groupTitles.map((t) => ({ value: t, label: t }))}
                />
              </Form.Item>
            )}
            <Form.Item label="Display Keys" extra="The fields each card shows (none: the record ID).">
              <FieldSelect
                mode="multiple"
                placeholder="Select fields to show on each card"
                value={displayKeys}
                onChange={edit(setDisplayKeys)}
                fields={columns}
                typing={typing}
                label={(c) => fieldLabel(c, labels)}
                aria-label="Display Keys"
              />
            </Form.Item>
            <Form.Item label="Highlight Rules">
              <HighlightRulesEditor rules={rules} keys={columns} onChange={edit(setRules)} />
            </Form.Item>
          </Form>
        </Card>
      </Col>
      <Col span={24}>
        <BucketPreview records={records} total={total} bucketKey={bucketKey} width={bucketWidth(width)} order={order} listed={listed} displayKeys={displayKeys} rules={rules.filter((r) => r.key)} labels={labels} typing={typing} />
      </Col>
    </Row>
  );
}
