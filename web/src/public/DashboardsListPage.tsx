import { ClockCircleOutlined, EyeOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Col, Empty, Flex, Result, Row, Skeleton, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { PublicDashboardSummaryDto } from '@common/schemas/dashboard';
import { publicApi as api } from '../api/client';
import { getPublicSocket } from '../realtime/socket';
import { formatTimestamp } from './cells';
import { LinkButton } from './landing/LinkButton';
import { ReadableTag } from './PublicTheme';

type ListState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; dashboards: PublicDashboardSummaryDto[] };

const byNewest = (a: PublicDashboardSummaryDto, b: PublicDashboardSummaryDto) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0);

/** The public list of published dashboards, kept live over Socket.IO (the shell's Overview page). */
export default function DashboardsListPage() {
  const [state, setState] = useState<ListState>({ status: 'loading' });

  const load = useCallback(async (quiet: boolean) => {
    if (!quiet) setState({ status: 'loading' });
    try {
      const dashboards = await api.get<PublicDashboardSummaryDto[]>('/api/dashboards');
      setState({ status: 'ready', dashboards });
    } catch (e) {
      console.error('Failed to fetch dashboards', e);
      setState((s) => (quiet && s.status === 'ready' ? s : { status: 'error' }));
    }
  }, []);

  useEffect(() => {
    const socket = getPublicSocket();
    const join = () => socket.emit('dashboards:join', () => {});
    const onConnect = () => {
      join();
      void load(true);
    };
    const onChanged = ({ dashboard }: { dashboard: PublicDashboardSummaryDto }) =>
      setState((s) => (s.status !== 'ready' ? s : { status: 'ready', dashboards: [dashboard, ...s.dashboards.filter((d) => d.id !== dashboard.id)].sort(byNewest) }));
    const onRemoved = ({ dashboardId }: { dashboardId: string }) =>
      setState((s) => (s.status !== 'ready' ? s : { status: 'ready', dashboards: s.dashboards.filter((d) => d.id !== dashboardId) }));
    socket.on('connect', onConnect);
    socket.on('dashboards:changed', onChanged);
    socket.on('dashboards:removed', onRemoved);
    if (socket.connected) join();
    void load(false);
    return () => {
      socket.off('connect', onConnect);
      socket.off('dashboards:changed', onChanged);
      socket.off('dashboards:removed', onRemoved);
    };
  }, [load]);

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
        <Result status="error" title="Failed to fetch dashboards" extra={<Button type="primary" onClick={() => void load(false)}>Retry</Button>} />
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
