import { AutoComplete, Flex, Form, Input, InputNumber, Modal, Radio, Select, Typography } from 'antd';
import { useRef } from 'react';
import type { DataSourceDto, UpdateMode } from '@common/schemas/dataSource';
import { api } from '../../api/client';
import { useDataSources } from '../stores/dataSources';
import { useToastSubmit } from '../ui/toast';
import { useSubmitValidation } from '../ui/submitValidation';

interface Values {
  name: string;
  description: string;
  /** How records are identified: by a primary key, append-only, or left to the first ingest. */
  keying: 'key' | 'appendOnly' | 'unset';
  primaryKey?: string | null;
  updateMode: UpdateMode;
  labels: Record<string, string>;
  timeField?: string | null;
  maxRecords?: number | null;
  maxAge?: number | null;
  maxAgeUnit: number;
}

const AGE_UNITS = [{ value: 60, label: 'minutes' }, { value: 3_600, label: 'hours' }, { value: 86_400, label: 'days' }];
/** A stored maxAgeSeconds as the dialog shows it: the largest unit that divides it. */
const ageParts = (seconds: number | null) => {
  if (!seconds) return { maxAge: null, maxAgeUnit: 3_600 };
  const unit = [...AGE_UNITS].reverse().find((u) => seconds % u.value === 0)?.value ?? 60;
  return { maxAge: Math.round(seconds / unit), maxAgeUnit: unit };
};


const keyingOf = (ds: DataSourceDto): Values['keying'] => (ds.appendOnly ? 'appendOnly' : ds.primaryKey ? 'key' : 'unset');

/**
 * Edit a data source: name, description, field labels (keyMappings), how records
 * are identified (a primary key, or append-only; only while the source is empty) and how an update
 * of a known key lands (replace or merge), its time field and retention.
 */
export function EditDataSourceDialog({ dataSource, onClose }: { dataSource: DataSourceDto | null; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const submitValidation = useSubmitValidation(dataSource?.id ?? null);
  const submit = useToastSubmit();
  // The closing dialog keeps showing the source it was opened for.
  const last = useRef(dataSource);
  if (dataSource) last.current = dataSource;
  const shown = dataSource ?? last.current;
  const fields = shown ? [...new Set([...shown.fields, ...Object.keys(shown.keyMappings)])] : [];

  // Mounted per open (destroyOnHidden, keyed by source) so it starts from the source's current values.
  const initialValues: Partial<Values> | undefined = shown
    ? {
      name: shown.name,
      description: shown.description,
      keying: keyingOf(shown),
      primaryKey: shown.primaryKey,
      updateMode: shown.updateMode,
      labels: Object.fromEntries(fields.map((f) => [f, shown.keyMappings[f] ?? ''])),
      timeField: shown.timeField,
      maxRecords: shown.retention.maxRecords,
      ...ageParts(shown.retention.maxAgeSeconds),
    }
    : undefined;

  const save = async (v: Values) => {
    if (!dataSource) return;
    await submit.run(async () => {
      const keyMappings = Object.fromEntries(fields.map((f) => [f, (v.labels?.[f] ?? '').trim()]).filter(([, label]) => label));
      // How records are identified is sent only when it changed (it may change only while the source is empty).
      const primaryKey = v.keying === 'key' ? (v.primaryKey ?? '').trim() || null : null;
      const appendOnly = v.keying === 'appendOnly';
      const keying = primaryKey !== dataSource.primaryKey || appendOnly !== dataSource.appendOnly ? (appendOnly ? { appendOnly } : { primaryKey, appendOnly: false }) : {};
      const updated = await api.patch<DataSourceDto>(`/api/admin/data-sources/${encodeURIComponent(dataSource.id)}`, {
        name: v.name.trim(),
        description: v.description ?? '',
        ...keying,
        updateMode: v.updateMode,
        keyMappings,
        // Retention: the whole {maxRecords, maxAgeSeconds}; a limit left empty is no limit.
        timeField: v.timeField?.trim() || null,
        retention: { maxRecords: v.maxRecords ?? null, ...(v.maxAge ? { maxAgeSeconds: v.maxAge * v.maxAgeUnit } : {}) },
      });
      useDataSources.getState().upsert(updated);
      onClose();
    }, { success: 'Data source updated successfully', failure: 'Error' });
  };

  return (
    <Modal open={Boolean(dataSource)} title="Edit Data Source" okText="Save" confirmLoading={submit.busy} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden width={560}>
      <Form {...submitValidation} form={form} key={shown?.id} name="editDataSource" layout="vertical" initialValues={initialValues} onFinish={save}>
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
          <Input />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item
          label="Records"
          name="keying"
          extra={shown && shown.recordCount > 0 ? 'Fixed while the source holds records: create a new source to identify records another way.' : undefined}
        >
          <Radio.Group disabled={Boolean(shown && shown.recordCount > 0)} data-testid="keying">
            <Radio value="key">Primary key: a second record with the same value updates it</Radio>
            <Radio value="appendOnly">Append-only: every record kept</Radio>
            <Radio value="unset">Decided by the first ingest</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item noStyle dependencies={['keying']}>
          {({ getFieldValue }) =>
            getFieldValue('keying') === 'key' && (
              <Form.Item label="Primary key" name="primaryKey" extra="A field, or a path into nested JSON such as issue.id" rules={[{ required: true, whitespace: true, message: 'Name the field that identifies a record' }]}>
                <AutoComplete disabled={Boolean(shown && shown.recordCount > 0)} placeholder="ticket_id" options={fields.map((f) => ({ value: f, label: f }))} />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item label="Updates" name="updateMode" extra="How a record whose key is already stored lands.">
          <Radio.Group data-testid="update-mode">
            <Radio value="replace">Replace the whole record</Radio>
            <Radio value="merge">Merge: only the fields sent change</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item label="Time field" name="timeField" extra="When a record happened (a field or path, ISO 8601 or epoch time). Retention and the viewer's default order use it; without it, the time a record arrived.">
          <AutoComplete allowClear placeholder="Not set" options={fields.map((f) => ({ value: f }))} />
        </Form.Item>
        <Form.Item label="Retention" extra="The oldest records (by time field) go first. Empty: no limit (an append-only source keeps a default).">
          <Flex gap={8} wrap align="center">
            <span>Keep at most</span>
            <Form.Item name="maxRecords" noStyle>
              <InputNumber min={1} max={100_000_000} precision={0} placeholder="any number" aria-label="Keep at most records" style={{ width: 140 }} />
            </Form.Item>
            <span>records, younger than</span>
            <Form.Item name="maxAge" noStyle>
              <InputNumber min={1} precision={0} placeholder="any age" aria-label="Keep records younger than" style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name="maxAgeUnit" noStyle>
              <Select options={AGE_UNITS} aria-label="Age unit" style={{ width: 110 }} />
            </Form.Item>
          </Flex>
        </Form.Item>
        <Typography.Text strong>Field labels</Typography.Text>
        {fields.length === 0 && <Typography.Paragraph type="secondary">No fields yet: ingest data first.</Typography.Paragraph>}
        <div style={{ maxHeight: 260, overflow: 'auto', marginTop: 8 }}>
          {fields.map((f) => (
            <Form.Item key={f} label={<Typography.Text code>{f}</Typography.Text>} name={['labels', f]} style={{ marginBottom: 8 }}>
              <Input placeholder={f} />
            </Form.Item>
          ))}
        </div>
      </Form>
    </Modal>
  );
}
