import { Alert, Button, Flex, Popconfirm, Typography } from 'antd';
import { DeleteOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { IntegrationDto } from '@common/schemas/integration';
import { useToastSubmit } from '../ui/toast';
import { integrationsApi } from './api';
import { relativeTime } from './relativeTime';
import { useIntegrations } from './store';


/** Zendesk connections started but never authorized: resume one in the wizard, or discard it. */
export function PendingIntegrations({ onResume }: { onResume(it: IntegrationDto): void }) {
  const items = useIntegrations((s) => s.items);
  const pending = items.filter((i) => i.type === 'zendesk' && i.status === 'pending');
  const submit = useToastSubmit();
  if (pending.length === 0) return null;

  const discard = (it: IntegrationDto) =>
    submit.run(async () => {
      await integrationsApi.remove(it.id);
      useIntegrations.getState().remove(it.id);
    }, { success: ['Integration discarded', `"${it.name}" was never connected and is gone.`], failure: 'Error', key: it.id });

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
                  <Button size="small" danger icon={<DeleteOutlined />} loading={submit.busyFor === it.id}>Discard</Button>
                </Popconfirm>
              </Flex>
            </Flex>
          ))}
        </Flex>
      }
    />
  );
}
