import { Form, Input, Modal, type InputRef } from 'antd';
import { useRef } from 'react';
import type { DataSourceWithKeyDto } from '@common/schemas/dataSource';
import { api } from '../../api/client';
import { useDataSources, useFreshIngestKeys } from '../stores/dataSources';
import { useToastSubmit } from '../ui/toast';
import { useSubmitValidation } from '../ui/submitValidation';

/** Create Custom Data Source: name (required) and description. */
export function CreateDataSourceDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [form] = Form.useForm<{ name: string; description?: string }>();
  const submitValidation = useSubmitValidation(open);
  const submit = useToastSubmit();
  const name = useRef<InputRef>(null);

  const create = (values: { name: string; description?: string }) =>
    submit.run(async () => {
      const created = await api.post<DataSourceWithKeyDto>('/api/admin/data-sources', { name: values.name.trim(), description: values.description ?? '' });
      useFreshIngestKeys.getState().remember(created.id, created.ingestKey);
      const { ingestKey: _key, ...ds } = created;
      useDataSources.getState().upsert(ds);
      form.resetFields();
      onClose();
    }, { success: 'Data source created successfully', failure: 'Error' });

  return (
    <Modal
      open={open}
      title="Create Custom Data Source"
      okText="Create"
      confirmLoading={submit.busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      // Once the dialog has opened (it takes focus itself), the Name field gets it — with or without motion.
      afterOpenChange={(opened) => opened && name.current?.focus()}
    >
      <Form {...submitValidation} form={form} name="createDataSource" layout="vertical" onFinish={create}>
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
          <Input ref={name} placeholder="e.g. Support Tickets" />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={3} placeholder="What this data source holds" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
