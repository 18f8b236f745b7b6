import { App, Button, Card, Col, Flex, Row, Skeleton, Typography } from 'antd';
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { sourceKind } from '@common/constants';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { api } from '../../api/client';
import { navigateAdmin } from '../shell/nav';
import { useDashboards } from '../stores/dashboards';
import { useDataSources } from '../stores/dataSources';
import { DeleteSourceText } from './DeleteSourceText';
import { EmptyState, LoadError } from '../ui/States';
import { useToastSubmit } from '../ui/toast';
import { CreateDataSourceDialog } from './CreateDataSourceDialog';
import { DataSourceCard } from './DataSourceCard';
import { EngineLine } from '../engine/EngineLine';
import { EditDataSourceDialog } from './EditDataSourceDialog';
import { FieldTypesDialog } from './FieldTypesDialog';
import { RawDataViewer } from './RawDataViewer';
import { useCan } from '../../api/session';

/**
 * A column's intro line and its button. The button sits in the body, not the card header: two columns
 * at 1024 px leave no room for a title and a button side by side.
 */
function ColumnIntro({ text, action }: { text: string; action: React.ReactNode }) {
  return (
    <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
      <Typography.Text type="secondary" style={{ flex: '1 1 200px' }}>{text}</Typography.Text>
      {action}
    </Flex>
  );
}

/** Data Sources > Overview: custom and integration sources side by side. */
export function DataSourcesOverview() {
  const isAdmin = useCan('admin');
  const { items, status, error, load } = useDataSources();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<DataSourceDto | null>(null);
  const [viewing, setViewing] = useState<DataSourceDto | null>(null);
  const [typing, setTyping] = useState<DataSourceDto | null>(null);
  const { modal } = App.useApp();
  const submit = useToastSubmit();

  const confirmDelete = (ds: DataSourceDto) =>
    modal.confirm({
      title: 'Delete Data Source',
      width: 480,
      content: <DeleteSourceText dataSource={ds} dashboards={useDashboards.getState().items.filter((d) => d.dataSourceId === ds.id)} />,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      // The dialog's OK button is busy until the answer (and closes either way).
      onOk: () =>
        submit.run(async () => {
          await api.delete(`/api/admin/data-sources/${encodeURIComponent(ds.id)}`);
          useDataSources.getState().remove(ds.id);
        }, { success: 'Data source deleted successfully', failure: 'Error' }),
    });

  const custom = items.filter((d) => sourceKind(d.sourceId) === 'custom');
  const others = items.filter((d) => sourceKind(d.sourceId) !== 'custom');
  const loading = status === 'idle' || (status === 'loading' && items.length === 0);

  const column = (list: DataSourceDto[], empty: React.ReactNode) => {
    if (status === 'error' && items.length === 0) return <LoadError title="Failed to fetch data sources" detail={error} onRetry={() => void load()} />;
    if (loading) return <Skeleton active paragraph={{ rows: 4 }} />;
    if (list.length === 0) return empty;
    return list.map((ds) => <DataSourceCard key={ds.id} dataSource={ds} onView={setViewing} onEdit={setEditing} onFields={setTyping} onDelete={confirmDelete} />);
  };

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="Custom Data Sources" data-testid="custom-sources">
            <ColumnIntro
              text="Sources you push JSON records into through the ingest API."
              action={isAdmin && <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>Create Data Source</Button>}
            />
            {column(custom, <EmptyState title="No custom data sources" text="Create a data source, then ingest JSON records into it." />)}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Integration Data Sources" data-testid="integration-sources">
            <ColumnIntro
              text="Sources filled by integrations such as Zendesk."
              action={isAdmin && <Button icon={<SettingOutlined />} onClick={() => navigateAdmin('data-sources', 'integrations')}>Manage Integrations</Button>}
            />
            {column(others, <EmptyState title="No integration data sources" text="Connect an integration to create one." />)}
          </Card>
        </Col>
      </Row>
      <EngineLine />
      {status === 'error' && items.length > 0 && (
        <Flex justify="center" style={{ marginTop: 12 }}>
          <Typography.Text type="danger">Failed to fetch data sources: {error} </Typography.Text>
          <Button size="small" type="link" onClick={() => void load()}>Retry</Button>
        </Flex>
      )}
      <CreateDataSourceDialog open={creating} onClose={() => setCreating(false)} />
      <EditDataSourceDialog dataSource={editing} onClose={() => setEditing(null)} />
      <RawDataViewer dataSource={viewing} onClose={() => setViewing(null)} />
      <FieldTypesDialog dataSource={typing} onClose={() => setTyping(null)} />
    </>
  );
}
