import { Skeleton, Table, Typography } from 'antd';
import type { DashboardAnalyticsDto } from '@common/schemas/analytics';
import { StatusTag } from '../dashboards/StatusTag';
import { EmptyState, LoadError, SECONDARY_TEXT } from '../ui/States';
import { loadAnalytics, useAnalytics, useAnalyticsLive } from './useAnalytics';
import { ViewsChart } from './ViewsChart';

const total = (d: DashboardAnalyticsDto) => d.viewsByDay.reduce((n, x) => n + x.views, 0);

/** Analytics: each dashboard's viewers right now (every process) and views per day, live. */
export default function AnalyticsScreen() {
  useAnalyticsLive();
  const { byId, status, error } = useAnalytics();
  const rows = Object.values(byId).sort((a, b) => b.viewers - a.viewers || total(b) - total(a) || a.name.localeCompare(b.name));
  if (status === 'error' && rows.length === 0) return <LoadError title="Failed to fetch analytics" detail={error} onRetry={() => void loadAnalytics()} />;
  if (status !== 'ready' && rows.length === 0) return <Skeleton active />;
  if (rows.length === 0) return <EmptyState title="No Dashboards" text="Create a dashboard to see who watches it." />;
  return (
    <div data-testid="analytics-screen">
      <Typography.Paragraph style={{ color: SECONDARY_TEXT }}>
        Viewers are open viewer pages right now — public and through share links. A view is counted each time a viewer page opens (days in UTC).
      </Typography.Paragraph>
      <Table<DashboardAnalyticsDto>
        rowKey="dashboardId"
        size="middle"
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: 'Dashboard', dataIndex: 'name', render: (name: string, d) => <>{name} <StatusTag isPublished={d.isPublished} /></> },
          {
            title: 'Viewers now',
            dataIndex: 'viewers',
            render: (n: number, d) => <Typography.Text strong style={{ fontSize: 18 }} data-testid={`viewers-${d.dashboardId}`}>{n}</Typography.Text>,
          },
          { title: 'Views today', key: 'today', render: (_: unknown, d) => <span data-testid={`views-today-${d.dashboardId}`}>{d.viewsByDay.at(-1)?.views ?? 0}</span> },
          { title: 'Views (30 days)', key: 'total', render: (_: unknown, d) => total(d) },
          { title: 'Views per day', key: 'chart', render: (_: unknown, d) => <ViewsChart days={d.viewsByDay} /> },
        ]}
      />
    </div>
  );
}
