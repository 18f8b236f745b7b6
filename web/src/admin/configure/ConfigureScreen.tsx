import { Button, Card, Col, Row, Skeleton, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { CONFIGURE_SKELETON_CARDS } from '@common/constants';
import { useDashboards } from '../stores/dashboards';
import { EmptyState, LoadError } from '../ui/States';
import { ConfigEditor } from './ConfigEditor';

/** Manage Dashboards > Configure: the dashboards grid, or the editor of one. */
export function ConfigureScreen({ dashboardId, onOpen }: { dashboardId: string | null; onOpen(id: string | null): void }) {
  const { items, status, error, load } = useDashboards();
  if (dashboardId) return <ConfigEditor dashboardId={dashboardId} onClose={() => onOpen(null)} />;
  if (status === 'error' && items.length === 0) return <LoadError title="Failed to fetch dashboards" detail={error} onRetry={() => void load()} />;
  if (status === 'idle' || (status === 'loading' && items.length === 0)) {
    return (
      <Row gutter={[16, 16]} data-testid="configure-skeleton">
        {Array.from({ length: CONFIGURE_SKELETON_CARDS }, (_, i) => (
          <Col key={i} xs={24} md={12} xl={8}><Card><Skeleton active /></Card></Col>
        ))}
      </Row>
    );
  }
  if (items.length === 0) return <EmptyState title="No Dashboards Available" text="Create a dashboard first to configure tabs and styles." />;
  return (
    <Row gutter={[16, 16]} data-testid="configure-grid">
      {items.map((d) => (
        <Col key={d.id} xs={24} md={12} xl={8}>
          <Card
            data-testid="configure-card"
            title={d.name}
            style={{ height: '100%' }}
            actions={[<Button key="c" type="primary" icon={<SettingOutlined />} onClick={() => onOpen(d.id)}>Configure</Button>]}
          >
            <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ minHeight: 22 }}>{d.description}</Typography.Paragraph>
            <Typography.Text type="secondary">Data source: {d.dataSourceName ?? 'No data source'}</Typography.Text>
            <br />
            <Typography.Text type="secondary">Created: {new Date(d.createdAt).toLocaleDateString()}</Typography.Text>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
