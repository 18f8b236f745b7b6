import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { ApiOutlined } from '@ant-design/icons';
import type { IntegrationDto } from '@common/schemas/integration';
import { errorText } from '../../../api/client';
import { useToastSubmit } from '../../ui/toast';
import { integrationsApi } from '../api';
import { useIntegrations } from '../store';
import { TestResult, type TestOutcome } from './TestResult';
import { OutboundHint } from '../../ui/OutboundHint';
import type { PullForm } from './types';

export interface PullDialogStart {
  form: PullForm;
  /** Editing a stored integration (its config comes with its secrets masked); null: a new one. */
  integration: IntegrationDto | null;
  /** A new one's name and description, typed in Add Integration. */
  prefill?: { name: string; description: string };
}

interface Values {
  name: string;
  description: string;
  config: Record<string, unknown>;
}

/**
 * Create or edit an API's or a database's integration: name, the provider's fields, Test connection
 * (the first page's fields and sample rows, nothing stored) and Create / Save. The server checks the
 * config; its answer is shown as it is, in its own words.
 */
export function PullIntegrationDialog({ start, onClose, onCreated }: { start: PullDialogStart | null; onClose(): void; onCreated?(it: IntegrationDto): void }) {
  const [form] = Form.useForm<Values>();
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const submit = useToastSubmit();
  const pull = start?.form ?? null;
  const editing = start?.integration ?? null;

  useEffect(() => {
    if (!start) return;
    setOutcome(null);
    setProblem(null);
    form.resetFields();
    form.setFieldsValue({
      name: editing?.name ?? start.prefill?.name ?? '', description: editing?.description ?? start.prefill?.description ?? '', config: start.form.toValues(editing?.connection ?? null),
    });
  }, [start, editing, form]);

  if (!pull) return null;
  const config = () => pull.toConfig((form.getFieldValue('config') ?? {}) as Record<string, unknown>);

  const test = async () => {
    setTesting(true);
    setProblem(null);
    try {
      const result = editing ? await integrationsApi.test(editing.id, config()) : await integrationsApi.testUnsaved(pull.type, config());
      setOutcome({ ok: true, result });
    } catch (e) {
      setOutcome({ ok: false, message: errorText(e) });
    } finally {
      setTesting(false);
    }
  };

  const save = async () => {
    const v = form.getFieldsValue();
    if (!editing && !v.name?.trim()) {
      setProblem('Name is required');
      return;
    }
    setProblem(null);
    await submit.run(async () => {
      try {
        const saved = editing
          ? await integrationsApi.saveConfig(editing.id, config())
          : await integrationsApi.create({ name: v.name.trim(), description: v.description ?? '', type: pull.type, config: config() });
        useIntegrations.getState().upsert(saved);
        onClose();
        if (!editing) onCreated?.(saved);
      } catch (e) {
        // The server's words stay in the dialog, beside the fields they are about.
        setProblem(errorText(e));
        throw e;
      }
    }, {
      success: editing ? ['Integration Saved', 'The next sync uses the new config.'] : ['Integration Created', 'Press Sync to pull its records into its data source.'],
      failure: editing ? 'Could not save' : 'Could not create',
    });
  };

  return (
    <Modal
      title={<span><ApiOutlined /> {editing ? `Edit ${editing.name}` : `Connect ${pull.label}`}</span>}
      open
      width={760}
      onCancel={onClose}
      destroyOnHidden
      data-testid="pull-dialog"
      footer={[
        <Button key="test" onClick={() => void test()} loading={testing} data-testid="test-connection">Test connection</Button>,
        <Button key="cancel" onClick={onClose}>Cancel</Button>,
        <Button key="save" type="primary" onClick={() => void save()} loading={submit.busy}>{editing ? 'Save' : 'Create Integration'}</Button>,
      ]}
    >
      <Form form={form} layout="vertical">
        {!editing && (
          <>
            <Form.Item name="name" label="Name" required><Input placeholder="Orders API" /></Form.Item>
            <Form.Item name="description" label="Description"><Input placeholder="Open orders from the shop" /></Form.Item>
          </>
        )}
        <pull.Fields editing={Boolean(editing)} />
      </Form>
      {/* A host refused by the outbound rule links Settings › Outbound hosts for admins, as an alert's does. */}
      {problem && <Alert type="error" showIcon title={<OutboundHint text={problem} />} style={{ marginBottom: 12 }} data-testid="pull-problem" />}
      {outcome ? <TestResult outcome={outcome} /> : (
        <Typography.Text type="secondary">Test connection reads the first page and shows its fields and a few records; nothing is stored.</Typography.Text>
      )}
    </Modal>
  );
}
