import { Form, Input, Modal, Select } from 'antd';
import type { IntegrationDto, IntegrationType } from '@common/schemas/integration';
import { useToastSubmit } from '../ui/toast';
import { integrationsApi } from './api';
import { useIntegrations } from './store';
import { useSubmitValidation } from '../ui/submitValidation';
import { PULL_FORMS } from './forms/registry';

const pullType = (type: 'api' | 'postgres' | 'mysql', label: string) => ({ value: type, label: PULL_FORMS[type] ? label : `${label} (Coming Soon)`, disabled: !PULL_FORMS[type] });

const TYPES: { value: IntegrationType; label: string; disabled: boolean }[] = [
  { value: 'zendesk', label: 'Zendesk', disabled: false },
  pullType('api', 'HTTP API'),
  pullType('postgres', 'PostgreSQL'),
  pullType('mysql', 'MySQL / MariaDB'),
  { value: 'salesforce', label: 'Salesforce (Coming Soon)', disabled: true },
  { value: 'hubspot', label: 'HubSpot (Coming Soon)', disabled: true },
];

/**
 * Add Integration: name, description, type; a Zendesk one goes on to the OAuth configuration, an
 * API or a database to its own form (which takes the name too).
 */
export function AddIntegrationDialog({ open, onClose, onCreated, onPull }: { open: boolean; onClose(): void; onCreated(it: IntegrationDto): void; onPull(type: string, prefill: { name: string; description: string }): void }) {
  const [form] = Form.useForm<{ name: string; description: string; type: IntegrationType }>();
  const submitValidation = useSubmitValidation(open);
  const submit = useToastSubmit();

  const create = (v: { name: string; description: string; type: IntegrationType }) =>
    v.type !== 'zendesk' ? onPull(v.type, { name: v.name, description: v.description ?? '' }) : submit.run(async () => {
      const created = await integrationsApi.create({ name: v.name, description: v.description ?? '', type: v.type });
      useIntegrations.getState().upsert(created);
      form.resetFields();
      onCreated(created);
    }, { success: ['Integration Created', "Now let's configure your OAuth credentials"], failure: 'Error' });

  return (
    <Modal title="Add Integration" open={open} okText="Create" okButtonProps={{ loading: submit.busy }} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden data-testid="add-integration-dialog">
      <Form {...submitValidation} form={form} layout="vertical" initialValues={{ type: 'zendesk' }} onFinish={(v) => void create(v)}>
        <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}><Input placeholder="Acme Support" /></Form.Item>
        <Form.Item name="description" label="Description"><Input.TextArea rows={2} /></Form.Item>
        <Form.Item name="type" label="Type" rules={[{ required: true, message: 'Type is required' }]}><Select options={TYPES} aria-label="Integration type" /></Form.Item>
      </Form>
    </Modal>
  );
}
