import { HistoryOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, App, Button, Drawer, Empty, Flex, Segmented, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { DashboardVersionDto, DashboardVersionsPage } from '@common/schemas/dashboardVersion';
import { api, errorText } from '../../../api/client';
import { useDashboards } from '../../stores/dashboards';
import { useToast } from '../toast';
import { VersionDiff } from './VersionDiff';
import { authorName, savedAt } from './words';

const PAGE = 20;
const base = (id: string) => `/api/admin/dashboards/${encodeURIComponent(id)}/versions`;

/**
 * The dashboard's history (GET …/versions): every save, newest first, who and when and what in
 * words. Choosing one shows what it changed, or everything since it, in sentences and JSON; an
 * older one can be restored (after a confirmation) as a new version — nothing in between is lost.
 */
export function VersionHistory({ dashboard, compact = false }: { dashboard: DashboardDto; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<HistoryOutlined />} onClick={() => setOpen(true)} aria-label="History" data-testid="history-button">{compact ? null : 'History'}</Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={`History of "${dashboard.name}"`} size="min(640px, 100vw)" data-testid="version-history" destroyOnHidden>
        {open && <HistoryList dashboard={dashboard} />}
      </Drawer>
    </>
  );
}

function HistoryList({ dashboard }: { dashboard: DashboardDto }) {
  const [versions, setVersions] = useState<DashboardVersionDto[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  // The first page again whenever the dashboard moves on (a save here or pushed from elsewhere).
  useEffect(() => {
    let live = true;
    api.get<DashboardVersionsPage>(`${base(dashboard.id)}?limit=${PAGE}`).then(
      (p) => {
        if (!live) return;
        setVersions(p.versions);
        setNextBefore(p.nextBefore);
        setError(null);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [dashboard.id, dashboard.version]);

  const more = async () => {
    if (nextBefore === null) return;
    setLoadingMore(true);
    try {
      const p = await api.get<DashboardVersionsPage>(`${base(dashboard.id)}?limit=${PAGE}&before=${nextBefore}`);
      setVersions((v) => [...(v ?? []), ...p.versions]);
      setNextBefore(p.nextBefore);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoadingMore(false);
    }
  };

  if (error && !versions) return <Alert type="error" showIcon title="The history could not be read" description={error} />;
  if (!versions) return <Skeleton active />;
  if (versions.length === 0) return <Empty description="No versions kept yet." />;
  return (
    <Flex vertical gap={8} role="list" data-testid="version-list">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Every save is kept. Choose a version to see what it changed; restoring one makes its content the dashboard again, as a new version.
      </Typography.Paragraph>
      {versions.map((v) => (
        <VersionEntry key={v.version} v={v} dashboard={dashboard} chosen={chosen === v.version} onChoose={() => setChosen((c) => (c === v.version ? null : v.version))} />
      ))}
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
      {nextBefore !== null && <Button onClick={() => void more()} loading={loadingMore}>Show older versions</Button>}
    </Flex>
  );
}

function VersionEntry({ v, dashboard, chosen, onChoose }: { v: DashboardVersionDto; dashboard: DashboardDto; chosen: boolean; onChoose(): void }) {
  const current = v.version === dashboard.version;
  const [view, setView] = useState<'this' | 'since'>('this');
  return (
    <div role="listitem" data-testid="version-entry" style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '8px 12px', background: chosen ? '#fafcff' : undefined }}>
      <Flex justify="space-between" align="start" gap={8} onClick={onChoose} style={{ cursor: 'pointer' }} role="button" tabIndex={0} aria-expanded={chosen} onKeyDown={(e) => e.key === 'Enter' && onChoose()}>
        <div style={{ minWidth: 0 }}>
          <Flex gap={6} align="center" wrap>
            <Typography.Text strong>Version {v.version}</Typography.Text>
            {current && <Tag color="blue">Current</Tag>}
            {v.restoredFrom !== null && <Tag>Restored from {v.restoredFrom}</Tag>}
          </Flex>
          <Typography.Text type="secondary">{authorName(v.author)} · {savedAt(v.createdAt)}</Typography.Text>
          {v.message && <div><Typography.Text italic>"{v.message}"</Typography.Text></div>}
          <div><Typography.Text>{v.summary}</Typography.Text></div>
        </div>
      </Flex>
      {chosen && (
        <Flex vertical gap={8} style={{ marginTop: 8 }}>
          {!current && (
            <Flex justify="space-between" align="center" gap={8} wrap>
              <Segmented size="small" value={view} onChange={(x) => setView(x as 'this' | 'since')} options={[{ value: 'this', label: 'What it changed' }, { value: 'since', label: 'Changed since' }]} />
              <RestoreButton dashboard={dashboard} version={v.version} />
            </Flex>
          )}
          {v.version <= 1 && view === 'this'
            ? <Typography.Text type="secondary">The first version: the dashboard as it was created.</Typography.Text>
            : view === 'this' || current
              ? <VersionDiff dashboardId={dashboard.id} from={v.version - 1} to={v.version} />
              : <VersionDiff dashboardId={dashboard.id} from={v.version} />}
        </Flex>
      )}
    </div>
  );
}

/** Restore, after a confirmation that says what happens: a new version, the current one kept in the history. */
function RestoreButton({ dashboard, version }: { dashboard: DashboardDto; version: number }) {
  const { modal } = App.useApp();
  const toast = useToast();
  const restore = () =>
    modal.confirm({
      title: `Restore version ${version}?`,
      content: `"${dashboard.name}" becomes what it was at version ${version}, saved as version ${dashboard.version + 1}. Open viewers and editors get it at once; version ${dashboard.version} stays in the history.`,
      okText: `Restore version ${version}`,
      cancelText: 'Cancel',
      onOk: async () => {
        try {
          const saved = await api.post<DashboardDto>(`${base(dashboard.id)}/${version}/restore`, {}, { headers: { 'If-Match': `"${dashboard.version}"` } });
          useDashboards.getState().upsert(saved);
          toast.success(`Version ${version} restored`, `"${saved.name}" is at version ${saved.version} now.`);
        } catch (e) {
          toast.error('Not restored', errorText(e));
        }
      },
    });
  return <Button size="small" icon={<RollbackOutlined />} onClick={restore} data-testid="restore-version">Restore this version</Button>;
}
