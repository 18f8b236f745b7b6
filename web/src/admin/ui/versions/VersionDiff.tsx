import { Alert, Skeleton, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { DashboardDiff } from '@common/dashboards/diff';
import { api, errorText } from '../../../api/client';

/**
 * What changed between two versions of a dashboard: in sentences ("Renamed the KPI 'Revenue' to
 * 'Total revenue'"), or as the server's JSON (added, removed, changed by id, settings).
 */
export function VersionDiff({ dashboardId, from, to }: { dashboardId: string; from: number; to?: number }) {
  const [diff, setDiff] = useState<DashboardDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setDiff(null);
    setError(null);
    const query = to === undefined ? '' : `?to=${to}`;
    api.get<DashboardDiff>(`/api/admin/dashboards/${encodeURIComponent(dashboardId)}/versions/${from}/diff${query}`).then(
      (d) => live && setDiff(d),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [dashboardId, from, to]);

  if (error) return <Alert type="error" showIcon title="The changes could not be read" description={error} />;
  if (!diff) return <Skeleton active paragraph={{ rows: 2 }} />;
  const { sentences, ...structure } = diff;
  return (
    <Tabs
      size="small"
      data-testid="version-diff"
      items={[
        {
          key: 'words',
          label: 'In words',
          children: sentences.length
            ? <ul style={{ margin: 0, paddingLeft: 18 }} data-testid="diff-sentences">{sentences.map((s, i) => <li key={i}>{s}</li>)}</ul>
            : <Typography.Text type="secondary">No changes between version {diff.from} and version {diff.to}.</Typography.Text>,
        },
        {
          key: 'json',
          label: 'JSON',
          children: <pre data-testid="diff-json" style={{ maxHeight: 320, overflow: 'auto', fontSize: 12, background: '#f6f8fa', padding: 8, borderRadius: 6, margin: 0 }}>{JSON.stringify(structure, null, 2)}</pre>,
        },
      ]}
    />
  );
}
