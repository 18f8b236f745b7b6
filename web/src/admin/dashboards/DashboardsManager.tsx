import { Button, Card, Col, Flex, List, Row, Skeleton, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { navigateAdmin } from '../shell/nav';
import { useDashboards } from '../stores/dashboards';
import { EmptyState, LoadError } from '../ui/States';
import { DashboardForm } from './DashboardForm';
import { StatusTag } from './StatusTag';
import { useDashboardActions } from './useDashboardActions';

/** Manage Dashboards > Builder (spec 2.9): the dashboards list and the create / edit form. */
export function DashboardsManager() {
  const { items, status, error, load } = useDashboards();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const { confirmDelete } = useDashboardActions();
  const selected = items.find((d) => d.id === selectedId) ?? null;

  let list: React.ReactNode;
  if (status === 'error' && items.length === 0) list = <LoadError title="Failed to fetch dashboards" detail={error} onRetry={() => void load()} />;
  else if (status === 'idle' || (status === 'loading' && items.length === 0)) list = <Skeleton active />;
  else if (items.length === 0) list = <EmptyState title="No Dashboards" text="Create your first dashboard to get started." />;
  else {
    list = (
      <List
        data-testid="dashboard-list"
        dataSource={items}
        renderItem={(d) => (
          <List.Item
            data-testid="dashboard-list-item"
            onClick={() => setSelectedId(d.id)}
            style={{ cursor: 'pointer', paddingInline: 8, borderRadius: 6, background: d.id === selectedId ? '#eff4ff' : undefined }}
            actions={[
              <Tooltip title="Configure tabs" key="configure">
                <Button
                  type="text"
                  aria-label={`Configure ${d.name}`}
                  icon={<SettingOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    navigateAdmin('dashboard-builder', 'configure', d.id);
                  }}
                />
              </Tooltip>,
              <Tooltip title="Delete" key="delete">
                <Button
                  type="text"
                  danger
                  aria-label={`Delete ${d.name}`}
                  icon={<DeleteOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    confirmDelete(d, () => setSelectedId((cur) => (cur === d.id ? null : cur)));
                  }}
                />
              </Tooltip>,
            ]}
          >
            <List.Item.Meta
              title={
                <Flex gap={8} align="center">
                  <span>{d.name}</span>
                  <StatusTag isPublished={d.isPublished} />
                </Flex>
              }
              description={d.dataSourceName ?? 'No data source'}
            />
          </List.Item>
        )}
      />
    );
  }

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={9}>
        <Card
          title="Dashboards"
          extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => setSelectedId(null)}>Create New Dashboard</Button>}
        >
          {list}
          {status === 'error' && items.length > 0 && (
            <Typography.Text type="danger">Failed to fetch dashboards: {error}</Typography.Text>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        <DashboardForm key={selected?.id ?? 'new'} dashboard={selected} onSaved={(d) => setSelectedId(d.id)} />
      </Col>
    </Row>
  );
}
