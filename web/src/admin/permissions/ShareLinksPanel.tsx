import { Alert, Button, Flex, Popconfirm, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { CreatedShareLinkDto, ShareLinkDto } from '@common/schemas/sharing/shareLink';
import { errorText } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useToast } from '../ui/toast';
import { SECONDARY_TEXT } from '../ui/States';
import { iframeSnippet, shareLinksApi, shareUrl } from './api';
import { CreateLinkForm } from './CreateLinkForm';
import { lockedFilterLabel } from '@common/filterBar';

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);
const STATUS_COLOR = { active: 'green', expired: 'default', revoked: 'red' } as const;

/** The link just made: its address and iframe snippet, shown this once. */
function NewLink({ created, onClose }: { created: CreatedShareLinkDto; onClose(): void }) {
  const url = shareUrl(created.path);
  return (
    <Alert
      type="success"
      showIcon
      closable={{ onClose }}
      data-testid="new-share-link"
      title={`Link "${created.link.label}" created — copy it now, it is shown only once`}
      description={
        <Flex vertical gap={4}>
          <Typography.Text copyable={{ text: url }} code data-testid="share-url">{url}</Typography.Text>
          <Typography.Text style={{ color: SECONDARY_TEXT }}>Embed (the origin must be allowed for embedding):</Typography.Text>
          <Typography.Text copyable code data-testid="iframe-snippet" style={{ wordBreak: 'break-all' }}>{iframeSnippet(url)}</Typography.Text>
        </Flex>
      }
    />
  );
}

/** A dashboard's share links: create, copy (once), revoke. */
export function ShareLinksPanel({ dashboardId }: { dashboardId: string }) {
  const [links, setLinks] = useState<ShareLinkDto[] | null>(null);
  const [created, setCreated] = useState<CreatedShareLinkDto | null>(null);
  const toast = useToast();
  const submit = useSubmit(toast);

  const load = useCallback(async () => {
    try {
      setLinks(await shareLinksApi.list(dashboardId));
    } catch (e) {
      toast.error('Failed to fetch share links', errorText(e));
    }
  }, [dashboardId, toast]);
  useEffect(() => void load(), [load]);

  const revoke = (link: ShareLinkDto) =>
    submit.run(async () => {
      const after = await shareLinksApi.revoke(dashboardId, link.id);
      setLinks((list) => list?.map((l) => (l.id === after.id ? after : l)) ?? null);
      if (created?.link.id === link.id) setCreated(null);
    }, { success: ['Link revoked', `"${link.label}" no longer opens the dashboard.`], failure: 'Failed to revoke link' });

  return (
    <Flex vertical gap={12}>
      <CreateLinkForm
        dashboardId={dashboardId}
        onCreated={(c) => {
          setCreated(c);
          setLinks((list) => [...(list ?? []), c.link]);
        }}
      />
      {created && <NewLink created={created} onClose={() => setCreated(null)} />}
      <Table<ShareLinkDto>
        size="small"
        rowKey="id"
        loading={links === null}
        dataSource={links ?? []}
        pagination={false}
        locale={{ emptyText: 'No share links yet' }}
        scroll={{ x: 'max-content' }}
        data-testid="share-links"
        columns={[
          { title: 'Label', dataIndex: 'label' },
          { title: 'Locked filters', key: 'filters', render: (_: unknown, l: ShareLinkDto) => (l.filters?.length ? l.filters.map((f, i) => <Tag key={i} data-testid="link-locked-filter">{lockedFilterLabel(f)}</Tag>) : '—') },
          { title: 'Link', dataIndex: 'tokenHint', render: (hint: string) => <Typography.Text code>/s/{hint}…</Typography.Text> },
          { title: 'CSV', dataIndex: 'allowCsv', render: (ok: boolean) => (ok ? 'Allowed' : 'Off') },
          { title: 'Expires', dataIndex: 'expiresAt', render: (v: string | null) => when(v, 'Never') },
          { title: 'Last used', dataIndex: 'lastUsedAt', render: (v: string | null) => when(v, 'Not yet') },
          { title: 'Status', dataIndex: 'status', render: (s: ShareLinkDto['status']) => <Tag color={STATUS_COLOR[s]}>{s[0].toUpperCase() + s.slice(1)}</Tag> },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, link) =>
              link.status === 'revoked' ? null : (
                <Popconfirm title="Revoke this link?" description="Its open viewers lose the dashboard at once." okText="Revoke" okButtonProps={{ danger: true }} onConfirm={() => revoke(link)}>
                  <Button danger size="small">Revoke</Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Flex>
  );
}
