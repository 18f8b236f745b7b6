import { Alert, Button, Card, Col, Flex, Row, Skeleton, Tooltip, Typography } from 'antd';
import { AppstoreAddOutlined, DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { DashboardDto } from '@common/schemas/dashboard';
import { useToastSubmit } from '../ui/toast';
import { addWidgets } from '../widgets/addWidgets';
import { useState } from 'react';
import { navigateAdmin } from '../shell/nav';
import { useDashboards } from '../stores/dashboards';
import { EmptyState, LoadError } from '../ui/States';
import { DashboardForm } from './DashboardForm';
import { StatusTag } from './StatusTag';
import { ExportDashboardButton, ImportDashboardButton } from './DashboardFile';
import { useDashboardActions } from './useDashboardActions';
import { VersionConflictDialog } from '../ui/versions/VersionConflictDialog';

/** Manage Dashboards > Builder: the dashboards list and the create / edit form (`source`: the data source a new one starts on). */
export function DashboardsManager({ source }: { source?: string | null } = {}) {
  const { items, status, error, load } = useDashboards();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const { confirmDelete } = useDashboardActions();
  const selected = items.find((d) => d.id === selectedId) ?? null;
  const [created, setCreated] = useState<DashboardDto | null>(null);
  const submit = useToastSubmit();

  let list: React.ReactNode;
  if (status === 'error' && items.length === 0) list = <LoadError title="Failed to fetch dashboards" detail={error} onRetry={() => void load()} />;
  else if (status === 'idle' || (status === 'loading' && items.length === 0)) list = <Skeleton active />;
  else if (items.length === 0) list = <EmptyState title="No Dashboards" text="Create your first dashboard to get started." />;
  else {
    list = (
      <Flex vertical gap={4} data-testid="dashboard-list" role="list">
        {items.map((d) => (
          <Flex
            key={d.id}
            role="listitem"
            data-testid="dashboard-list-item"
            align="center"
            justify="space-between"
            gap={8}
            tabIndex={0}
            onClick={() => setSelectedId(d.id)}
            onKeyDown={(e) => e.key === 'Enter' && setSelectedId(d.id)}
            style={{
              cursor: 'pointer', padding: '10px 8px', borderRadius: 6, borderBottom: '1px solid #f0f0f0',
              background: d.id === selectedId ? '#eff4ff' : undefined,
            }}
          >
            <div style={{ minWidth: 0 }}>
              <Flex gap={8} align="center">
                <Typography.Text strong ellipsis>{d.name}</Typography.Text>
                <StatusTag isPublished={d.isPublished} />
              </Flex>
              <Typography.Text type="secondary">{d.dataSourceName ?? 'No data source'}</Typography.Text>
            </div>
            <Flex gap={2}>
              <Tooltip title="Configure tabs">
                <Button
                  type="text"
                  aria-label={`Configure ${d.name}`}
                  icon={<SettingOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    navigateAdmin('dashboard-builder', 'configure', d.id);
                  }}
                />
              </Tooltip>
              <ExportDashboardButton dashboard={d} />
              <Tooltip title="Delete">
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
              </Tooltip>
            </Flex>
          </Flex>
        ))}
      </Flex>
    );
  }

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={9}>
        {/* The button is in the body: a narrow left column has no room for it beside the title. */}
        <Card title="Dashboards" data-testid="dashboards-card">
          <Button type="primary" block icon={<PlusOutlined />} onClick={() => setSelectedId(null)} style={{ marginBottom: 8 }}>Create New Dashboard</Button>
          <ImportDashboardButton onImported={(d) => setSelectedId(d.id)} />
          {list}
          {status === 'error' && items.length > 0 && (
            <Typography.Text type="danger">Failed to fetch dashboards: {error}</Typography.Text>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        {created && created.id === selectedId && (
          // The next step at once: a new dashboard is empty until it has widgets.
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="dashboard-next-step"
            title={`"${created.name}" is created. Next, add widgets to it.`}
            action={
              <Flex gap={8} wrap>
                <Button type="primary" icon={<AppstoreAddOutlined />} onClick={() => void submit.run(() => addWidgets(items.find((d) => d.id === created.id) ?? created), { failure: 'Error' })}>Add widgets</Button>
                <Button onClick={() => navigateAdmin('dashboard-builder', 'templates')}>Use a template</Button>
              </Flex>
            }
          />
        )}
        <DashboardForm
          key={selected?.id ?? `new:${source ?? ''}`}
          dashboard={selected}
          initialSourceId={source ?? undefined}
          onSaved={(d) => {
            if (!selected) setCreated(d);
            setSelectedId(d.id);
          }}
        />
      </Col>
      {/* The form follows "Load theirs" itself (theirsLoaded): nothing else to discard here. */}
      <VersionConflictDialog discardEdits={() => {}} />
    </Row>
  );
}
