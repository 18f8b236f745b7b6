import { Button, Card, Col, Flex, Row, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import {
  AppstoreOutlined, CloudUploadOutlined, MailOutlined, CustomerServiceOutlined, ShareAltOutlined, StopOutlined, DeleteOutlined, EditOutlined, ExportOutlined, InboxOutlined, LineChartOutlined,
} from '@ant-design/icons';
import type { DashboardDto } from '@common/schemas/dashboard';
import { StatusTag } from '../dashboards/StatusTag';
import { ShareDialog } from '../permissions/ShareDialog';
import { useAnalyticsLive } from '../analytics/useAnalytics';
import { ViewerCount } from '../analytics/ViewerCount';
import { useDashboardActions } from '../dashboards/useDashboardActions';
import { navigateAdmin } from '../shell/nav';
import { useDashboards } from '../stores/dashboards';
import { EmptyState, LoadError } from '../ui/States';

/** Icon and colour by the dashboard's name, so a card keeps its look across reloads. */
function look(name: string) {
  const n = name.toLowerCase();
  if (n.includes('support')) return { icon: <CustomerServiceOutlined />, color: '#2563eb', bg: '#eff4ff' };
  if (n.includes('sales')) return { icon: <LineChartOutlined />, color: '#16a34a', bg: '#ecfdf3' };
  if (n.includes('inventory')) return { icon: <InboxOutlined />, color: '#9333ea', bg: '#f5efff' };
  return { icon: <AppstoreOutlined />, color: '#475569', bg: '#f1f5f9' };
}

function DashboardCard({ d, onShare }: { d: DashboardDto; onShare(): void }) {
  const { confirmDelete, setPublished } = useDashboardActions();
  const l = look(d.name);
  return (
    <Card data-testid="published-card" style={{ height: '100%' }}>
      <Flex gap={12} align="start">
        <div style={{ fontSize: 22, color: l.color, background: l.bg, borderRadius: 8, width: 44, height: 44, display: 'grid', placeItems: 'center', flex: 'none' }}>
          {l.icon}
        </div>
        <div style={{ minWidth: 0, flex: 1 }}>
          <Flex justify="space-between" gap={8}>
            <Typography.Title level={5} style={{ margin: 0 }} ellipsis>{d.name}</Typography.Title>
            <StatusTag isPublished={d.isPublished} />
          </Flex>
          {/* The source by its name (its id is kept for the API, on hover). */}
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="published-source" title={d.dataSourceId ? `Data Source ID: ${d.dataSourceId}` : undefined}>
            Data Source: {d.dataSourceName ?? d.dataSourceId ?? '-'}
          </Typography.Text>
        </div>
      </Flex>
      <Typography.Paragraph style={{ margin: '12px 0 4px', minHeight: 22 }} ellipsis={{ rows: 2 }}>{d.description}</Typography.Paragraph>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>Last Updated: {new Date(d.updatedAt).toLocaleString()}</Typography.Text>
        <ViewerCount dashboardId={d.id} />
      </Flex>
      <Flex gap={8} wrap style={{ marginTop: 12 }}>
        {d.isPublished && (
          <Button icon={<ExportOutlined />} href={`/dashboards/${d.id}`} target="_blank">View Public</Button>
        )}
        <Button icon={d.isPublished ? <StopOutlined /> : <CloudUploadOutlined />} onClick={() => void setPublished(d, !d.isPublished)}>
          {d.isPublished ? 'Unpublish' : 'Publish'}
        </Button>
        <Button icon={<ShareAltOutlined />} onClick={onShare}>Share</Button>
        <Button icon={<EditOutlined />} onClick={() => navigateAdmin('dashboard-builder', 'configure', d.id)}>Edit</Button>
        <Button icon={<MailOutlined />} onClick={() => navigateAdmin('published-dashboards', 'reports', d.id)}>Schedule a report</Button>
        <Button danger icon={<DeleteOutlined />} onClick={() => confirmDelete(d)}>Delete</Button>
      </Flex>
    </Card>
  );
}

/** Published Dashboards: every dashboard with its Live / Draft state. */
export function PublishedDashboards() {
  const { items, status, error, load } = useDashboards();
  const [sharing, setSharing] = useState<DashboardDto | null>(null);
  useAnalyticsLive();
  if (status === 'error' && items.length === 0) return <LoadError title="Failed to fetch dashboards" detail={error} onRetry={() => void load()} />;
  if (status === 'idle' || (status === 'loading' && items.length === 0)) return <Skeleton active />;
  if (items.length === 0) {
    return (
      <EmptyState
        title="No Dashboards"
        text="Create your first dashboard to get started."
        action={<Button type="primary" onClick={() => navigateAdmin('dashboard-builder', 'builder')}>Create Dashboard</Button>}
      />
    );
  }
  return (
    <Row gutter={[16, 16]} data-testid="published-grid">
      {items.map((d) => (
        <Col key={d.id} xs={24} md={12} xl={8}>
          <DashboardCard d={d} onShare={() => setSharing(d)} />
        </Col>
      ))}
      <ShareDialog dashboard={sharing} onClose={() => setSharing(null)} />
    </Row>
  );
}
