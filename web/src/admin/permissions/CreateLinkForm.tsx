import { Button, DatePicker, Flex, Form, Input, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import type { CreatedShareLinkDto } from '@common/schemas/sharing/shareLink';
import { SHARE_LINK_LABEL_MAX } from '@common/sharing';
import { useToastSubmit } from '../ui/toast';
import { shareLinksApi } from './api';
import { LockedFilterInput, lockedFilters, type LockDraft } from '../ui/LockedFilterInput';

interface Values {
  label: string;
  expiresAt?: Dayjs | null;
  allowCsv: boolean;
}

/** Label, optional expiry and "Allow CSV export" of a new link. */
export function CreateLinkForm({ dashboardId, onCreated }: { dashboardId: string; onCreated(created: CreatedShareLinkDto): void }) {
  const [form] = Form.useForm<Values>();
  const submit = useToastSubmit();
  const [lock, setLock] = useState<LockDraft>({ operator: 'eq', value: '' });

  const create = (values: Values) =>
    submit.run(async () => {
      const created = await shareLinksApi.create(dashboardId, {
        label: values.label.trim(),
        allowCsv: values.allowCsv,
        expiresAt: values.expiresAt ? values.expiresAt.toISOString() : null,
        filters: lockedFilters(lock),
      });
      form.resetFields();
      setLock({ operator: 'eq', value: '' });
      onCreated(created);
    }, { failure: 'Failed to create share link' });

  return (
    <Form form={form} layout="vertical" initialValues={{ allowCsv: true }} onFinish={(v) => void create(v)} data-testid="create-link-form">
      <Flex gap={12} wrap align="end">
        <Form.Item
          name="label"
          label="Label"
          style={{ flex: '1 1 200px', marginBottom: 0 }}
          rules={[{ required: true, whitespace: true, message: 'Label is required' }, { max: SHARE_LINK_LABEL_MAX }]}
        >
          <Input placeholder="e.g. Acme support team" maxLength={SHARE_LINK_LABEL_MAX} />
        </Form.Item>
        <Form.Item name="expiresAt" label="Expires" style={{ marginBottom: 0 }}>
          <DatePicker showTime placeholder="Never" disabledDate={(d) => d.isBefore(new Date(), 'day')} />
        </Form.Item>
        <Form.Item name="allowCsv" label="Allow CSV export" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Switch />
        </Form.Item>
      </Flex>
      {/* Asked before Create: a link's locks are set when it is made. */}
      <Form.Item label="Locked filter (the link's viewers see, export and are sent only the matching records)" style={{ marginTop: 12, marginBottom: 12 }}>
        <LockedFilterInput dashboardId={dashboardId} value={lock} onChange={setLock} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={submit.busy}>Create Link</Button>
    </Form>
  );
}
