import { useState } from 'react';
import { Alert, Badge, Button, Card, Collapse, Flex, Progress, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { ClockCircleOutlined, DeleteOutlined, EditOutlined, KeyOutlined, RedoOutlined, SyncOutlined } from '@ant-design/icons';
import type { IntegrationDto } from '@common/schemas/integration';
import { AUTO_SYNC_DEFAULT_SECONDS } from '@common/constants';
import { useSubmit } from '../../api/useSubmit';
import { OutboundHint } from '../ui/OutboundHint';
import { SECONDARY_TEXT } from '../ui/States';
import { useToast } from '../ui/toast';
import { integrationsApi } from './api';
import { LastRuns } from './LastRuns';
import { NextStep } from './NextStep';
import { AutoSyncDialog, RemoveDialog, ScheduleDialog, SyncRangeDialog } from './dialogs';
import { everyText, plural, summarizeSyncError } from './humanText';
import { relativeTime } from './relativeTime';
import { useIntegrations } from './store';
import { followSync } from './syncFollower';

const STATUS: Record<string, { text: string; status: 'success' | 'default' | 'error' | 'processing' | 'warning' }> = {
  active: { text: 'Active', status: 'success' },
  inactive: { text: 'Inactive', status: 'default' },
  error: { text: 'Error', status: 'error' },
  pending: { text: 'Pending', status: 'warning' },
};

const TYPE_LABEL: Record<string, string> = { zendesk: 'Zendesk', api: 'HTTP API', postgres: 'PostgreSQL', mysql: 'MySQL' };

type Dialog = null | 'remove' | 'range' | 'auto' | 'schedule';

/** One row of "Active Integrations" with every per-integration control. */
export function IntegrationCard({ integration: it, onAuthorize, onEdit }: { integration: IntegrationDto; onAuthorize(it: IntegrationDto): void; onEdit(it: IntegrationDto): void }) {
  const toast = useToast();
  const totals = useIntegrations((s) => s.totals[it.id]);
  const sync = useIntegrations((s) => s.syncs[it.id]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const submit = useSubmit(toast);
  const busy = submit.busy;
  const status = STATUS[it.status] ?? { text: 'Unknown', status: 'default' as const };
  const running = Boolean(sync?.running) || it.isSyncing;
  const incremental = Boolean(it.config.lastCursor);
  // An API or a database: from its stored cursor (or everything again); Zendesk: its initial range, then new tickets.
  const isPull = it.type !== 'zendesk';

  const pullSync = (full: boolean) =>
    submit.run(async () => {
      const res = await integrationsApi.pull(it.id, full);
      followSync(it.id, toast);
      return res;
    }, { success: () => ['Sync Started', full ? `Reading everything from ${it.config.domain ?? 'the source'} again.` : `Reading ${it.config.domain ?? 'the source'}.`], failure: 'Sync Error' });

  const startSync = async (startDate?: string) => {
    setDialog(null);
    await submit.run(async () => {
      const res = await integrationsApi.startSync(it.id, startDate);
      if (res.status === 'started') followSync(it.id, toast);
      return res;
    }, {
      success: (res) => (res.status === 'started' ? ['Sync Started', incremental && !startDate ? 'Fetching new and changed Zendesk data.' : 'Importing your Zendesk data.'] : undefined),
      failure: 'Sync Error',
    });
  };

  const saveSettings = (autoSync: boolean, syncInterval: number) =>
    submit.run(async () => {
      useIntegrations.getState().upsert(await integrationsApi.saveSettings(it.id, { autoSync, syncInterval }));
      setDialog(null);
    }, { success: ['Settings Updated', autoSync ? `Auto sync runs ${everyText(syncInterval)}.` : 'Auto sync is off.'], failure: 'Settings Error' });

  const remove = () =>
    submit.run(async () => {
      await integrationsApi.remove(it.id);
      useIntegrations.getState().remove(it.id);
      setDialog(null);
    }, { success: 'Integration deleted successfully', failure: 'Error' });

  return (
    <Card size="small" data-testid={`integration-${it.id}`} style={{ marginBottom: 12 }}>
      <Flex justify="space-between" align="start" wrap gap={12}>
        <div>
          <Space align="center" wrap>
            <Typography.Text strong style={{ fontSize: 16 }}>{it.name}</Typography.Text>
            <Badge status={status.status} text={status.text} data-testid="integration-status" />
            <Tag>{TYPE_LABEL[it.type] ?? it.type}</Tag>
            {it.config.domain && <Typography.Text type="secondary">{it.config.domain}</Typography.Text>}
          </Space>
          {it.description && <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>{it.description}</Typography.Paragraph>}
        </div>
        <Space wrap>
          <Tooltip title={it.config.autoSync ? `Syncs ${everyText(it.config.syncInterval)}` : 'Auto sync off'}>
            <Space size={4}>
              <Switch
                size="small"
                checked={it.config.autoSync}
                disabled={it.status !== 'active' || busy}
                onChange={(on) => (on ? setDialog('auto') : void saveSettings(false, AUTO_SYNC_DEFAULT_SECONDS))}
                aria-label="Auto sync"
                data-testid="auto-sync-switch"
              />
              <span>Auto Sync</span>
            </Space>
          </Tooltip>
          <Button icon={<ClockCircleOutlined />} disabled={it.status !== 'active'} onClick={() => setDialog('schedule')}>Schedule</Button>
          {it.status !== 'active' && it.type === 'zendesk' && (
            <Button icon={<KeyOutlined />} onClick={() => onAuthorize(it)}>Authorize</Button>
          )}
          {isPull && <Button icon={<EditOutlined />} disabled={running} onClick={() => onEdit(it)} data-testid="edit-button">Edit</Button>}
          {isPull && (
            <Tooltip title="Read everything again from the beginning (records are updated, never duplicated)">
              <Button icon={<RedoOutlined />} disabled={it.status !== 'active' || running} onClick={() => void pullSync(true)} data-testid="full-sync-button">Full sync</Button>
            </Tooltip>
          )}
          <Button
            type="primary"
            icon={<SyncOutlined spin={running} />}
            disabled={it.status !== 'active' || running}
            onClick={() => (isPull ? void pullSync(false) : incremental ? void startSync() : setDialog('range'))}
            data-testid="sync-button"
          >
            {isPull ? 'Sync' : incremental ? 'Sync New' : 'Initial Sync'}
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={() => setDialog('remove')} aria-label="Remove integration" data-testid="remove-button" />
        </Space>
      </Flex>

      {sync && (
        <div data-testid="sync-progress" style={{ marginTop: 12 }}>
          <Progress percent={sync.progress} status="active" />
          <Typography.Text type="secondary">{sync.message}</Typography.Text>
        </div>
      )}

      <Flex gap={24} wrap style={{ marginTop: 12, padding: '8px 12px', background: '#fafafa', borderRadius: 6 }} data-testid="integration-totals">
        {totals && 'totalRecords' in totals ? (
          <span>{plural(totals.totalRecords, 'record')}</span>
        ) : (
          <>
            <span>{plural(totals?.totalTickets ?? 0, 'ticket')}</span>
            <span>{plural(totals?.totalUsers ?? 0, 'user')}</span>
            <span>{plural(totals?.totalOrganizations ?? 0, 'organization')}</span>
            <span>{plural(totals?.totalCustomStatuses ?? 0, 'custom status', 'custom statuses')}</span>
          </>
        )}
      </Flex>

      {it.config.lastSyncErrors.length > 0 && !running && (
        // A sentence first; the raw answers (HTTP traces) folded below it.
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 8 }}
          data-testid="sync-errors"
          title={isPull ? 'The last sync failed' : `Last sync: ${summarizeSyncError(it.config.lastSyncErrors.join('; '))}`}
          description={isPull ? <span data-testid="sync-error-text"><OutboundHint text={it.config.lastSyncErrors.join('; ')} /></span> : (
            <Collapse
              ghost
              size="small"
              items={[{
                key: 'details',
                label: `Details (${plural(it.config.lastSyncErrors.length, 'error')})`,
                children: <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0, fontSize: 12 }}>{it.config.lastSyncErrors.join('\n')}</pre>,
              }]}
            />
          )}
        />
      )}

      <Flex gap={16} wrap style={{ marginTop: 8, fontSize: 12, color: SECONDARY_TEXT }}>
        <span>Created {relativeTime(it.createdAt)}</span>
        <span>Updated {relativeTime(it.updatedAt)}</span>
        <span>Last sync {relativeTime(it.lastSync)}</span>
        {it.config.autoSync && <span>Auto sync {everyText(it.config.syncInterval)}</span>}
        <span>ID: <Typography.Text copyable={{ text: it.id }} style={{ fontSize: 12 }}>{it.id}</Typography.Text></span>
      </Flex>

      {isPull && <LastRuns integration={it} />}
      {isPull && !running && <NextStep integration={it} />}

      <RemoveDialog name={it.name} open={dialog === 'remove'} busy={busy} onConfirm={() => void remove()} onCancel={() => setDialog(null)} />
      <SyncRangeDialog open={dialog === 'range'} onStart={(d) => void startSync(d)} onCancel={() => setDialog(null)} />
      <AutoSyncDialog
        open={dialog === 'auto'}
        busy={busy}
        onSave={(s) => void saveSettings(true, s)}
        onInvalid={() => toast.error('Invalid Frequency', 'Please enter a frequency of at least 30 seconds')}
        onCancel={() => setDialog(null)}
      />
      <ScheduleDialog
        open={dialog === 'schedule'}
        busy={busy}
        currentSeconds={it.config.autoSync ? it.config.syncInterval : null}
        onSave={(s) => void saveSettings(true, s)}
        onCancel={() => setDialog(null)}
      />
    </Card>
  );
}
