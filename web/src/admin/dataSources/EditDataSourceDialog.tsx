import { Form, Input, Modal, Select, Typography } from 'antd';
import { useRef, useState } from 'react';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { api, errorText } from '../../api/client';
import { useDataSources } from '../stores/dataSources';
import { useToast } from '../ui/toast';
import { useSubmitValidation } from '../ui/submitValidation';

interface Values {
  name: string;
  description: string;
  primaryKey?: string | null;
  labels: Record<string, string>;
}

/** Edit a data source (DECISIONS.md): name, description, primary key and field labels (keyMappings). */
export function EditDataSourceDialog({ dataSource, onClose }: { dataSource: DataSourceDto | null; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const submitValidation = useSubmitValidation(dataSource?.id ?? null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
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
      primaryKey: shown.primaryKey,
      labels: Object.fromEntries(fields.map((f) => [f, shown.keyMappings[f] ?? ''])),
    }
    : undefined;

  const submit = async (v: Values) => {
    if (!dataSource) return;
    setBusy(true);
    try {
      const keyMappings = Object.fromEntries(fields.map((f) => [f, (v.labels?.[f] ?? '').trim()]).filter(([, label]) => label));
      const updated = await api.patch<DataSourceDto>(`/api/admin/data-sources/${encodeURIComponent(dataSource.id)}`, {
        name: v.name.trim(),
        description: v.description ?? '',
        primaryKey: v.primaryKey || null,
        keyMappings,
      });
      useDataSources.getState().upsert(updated);
      toast.success('Data source updated successfully');
      onClose();
    } catch (e) {
      toast.error('Error', errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={Boolean(dataSource)} title="Edit Data Source" okText="Save" confirmLoading={busy} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden width={560}>
      <Form {...submitValidation} form={form} key={shown?.id} name="editDataSource" layout="vertical" initialValues={initialValues} onFinish={submit}>
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
          <Input />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item label="Primary key" name="primaryKey" extra="The field that identifies a record; a second ingest of the same value updates it.">
          <Select allowClear placeholder="Not set" options={fields.map((f) => ({ value: f, label: f }))} />
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
