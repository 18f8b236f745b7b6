import { ClockCircleOutlined, EyeOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Col, Empty, Flex, Result, Row, Skeleton, Typography } from 'antd';
import { formatTimestamp } from './cells';
import { LinkButton } from './landing/LinkButton';
import { ReadableTag } from './PublicTheme';
import { usePublishedDashboards } from './usePublishedDashboards';

/** The public list of published dashboards, kept live over Socket.IO (the shell's Overview page). */
export default function DashboardsListPage() {
  const { state, retry } = usePublishedDashboards();

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200, margin: '0 auto' }}>
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>Published Dashboards</Typography.Title>
        <Typography.Text type="secondary">Live dashboards anyone can view and export.</Typography.Text>
      </div>
      {state.status === 'loading' && (
        <Row gutter={[16, 16]}>
          {[0, 1, 2].map((i) => (
            <Col key={i} xs={24} md={12} xl={8}><Card><Skeleton active paragraph={{ rows: 3 }} /></Card></Col>
          ))}
        </Row>
      )}
      {state.status === 'error' && (
        <Result status="error" title="Failed to fetch dashboards" extra={<Button type="primary" onClick={retry}>Retry</Button>} />
      )}
      {state.status === 'ready' && state.dashboards.length === 0 && (
        <Card>
          <Empty description={<Flex vertical gap={4}><strong>No Published Dashboards</strong><span>Dashboards appear here once an admin publishes them.</span></Flex>} />
        </Card>
      )}
      {state.status === 'ready' && state.dashboards.length > 0 && (
        <Row gutter={[16, 16]}>
          {state.dashboards.map((d) => (
            <Col key={d.id} xs={24} md={12} xl={8}>
              <Card
                data-testid="dashboard-card"
                style={{ height: '100%' }}
                styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: '100%' } }}
              >
                <Flex justify="space-between" align="start" gap={8}>
                  <Typography.Title level={5} style={{ margin: 0 }} ellipsis={{ rows: 2, tooltip: d.name }}>{d.name}</Typography.Title>
                  <ReadableTag color="green" style={{ marginInlineEnd: 0 }}><Badge status="processing" color="green" /> Live</ReadableTag>
                </Flex>
                <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ margin: 0, flex: 1 }}>
                  {d.description || 'No description'}
                </Typography.Paragraph>
                <Flex justify="space-between" align="center" gap={8} wrap>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    <ClockCircleOutlined /> Last updated {formatTimestamp(d.lastDataUpdate && d.lastDataUpdate > d.updatedAt ? d.lastDataUpdate : d.updatedAt)}
                  </Typography.Text>
                  <LinkButton type="primary" icon={<EyeOutlined />} to={`/dashboards/${d.id}`} aria-label={`View ${d.name}`}>View</LinkButton>
                </Flex>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
