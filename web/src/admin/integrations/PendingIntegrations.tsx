import { Alert, Button, Flex, Popconfirm, Typography } from 'antd';
import { DeleteOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useState } from 'react';
import type { IntegrationDto } from '@common/schemas/integration';
import { errorText } from '../../api/client';
import { useToast } from '../ui/toast';
import { integrationsApi } from './api';
import { relativeTime } from './relativeTime';
import { useIntegrations } from './store';


/** Zendesk connections started but never authorized: resume one in the wizard, or discard it. */
export function PendingIntegrations({ onResume }: { onResume(it: IntegrationDto): void }) {
  const items = useIntegrations((s) => s.items);
  const pending = items.filter((i) => i.type === 'zendesk' && i.status === 'pending');
  const [busy, setBusy] = useState<string | null>(null);
  const toast = useToast();
  if (pending.length === 0) return null;

  const discard = async (it: IntegrationDto) => {
    setBusy(it.id);
    try {
      await integrationsApi.remove(it.id);
      useIntegrations.getState().remove(it.id);
      toast.success('Integration discarded', `"${it.name}" was never connected and is gone.`);
    } catch (e) {
      toast.error('Error', errorText(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="pending-integrations"
      title={pending.length === 1 ? 'An unfinished Zendesk connection' : `${pending.length} unfinished Zendesk connections`}
      description={
        <Flex vertical gap={8} style={{ marginTop: 4 }}>
          {pending.map((it) => (
            <Flex key={it.id} align="center" justify="space-between" gap={8} wrap data-testid="pending-integration">
              <span>
                <Typography.Text strong>{it.name}</Typography.Text>{' '}
                <Typography.Text type="secondary">started {relativeTime(it.createdAt).replace(/^Just now$/, 'just now')}</Typography.Text>
              </span>
              <Flex gap={8}>
                <Button size="small" type="primary" icon={<PlayCircleOutlined />} onClick={() => onResume(it)}>Resume</Button>
                <Popconfirm
                  title={`Discard "${it.name}"?`}
                  description="It was never authorized; nothing was synced."
                  okText="Discard"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => void discard(it)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} loading={busy === it.id}>Discard</Button>
                </Popconfirm>
              </Flex>
            </Flex>
          ))}
        </Flex>
      }
    />
  );
}
