import { Button, Card, Flex, Typography } from 'antd';
import { AppstoreAddOutlined, DatabaseOutlined } from '@ant-design/icons';
import { useEffect } from 'react';
import { useCan } from '../../api/session';
import { IngestKeyRow } from '../dataSources/IngestKeyRow';
import { SourceUrlRow } from '../dataSources/SourceUrlRow';
import { navigateAdmin } from '../shell/nav';
import { useDataSources } from '../stores/dataSources';

/**
 * After an import: where the source's records go from now on (its URL and ingest key, with copy
 * buttons) and the next step, a dashboard on it.
 */
export function ImportNextStep({ dataSourceId }: { dataSourceId: string }) {
  const ds = useDataSources((s) => s.items.find((d) => d.id === dataSourceId));
  const isAdmin = useCan('admin');
  useEffect(() => {
    // A source the import created may not be in the list yet.
    if (!ds) void useDataSources.getState().load();
  }, [ds]);
  if (!ds) return null;
  return (
    <Card size="small" style={{ marginTop: 16 }} data-testid="import-next-step" title={`Send more records to "${ds.name}"`}>
      <SourceUrlRow sourceId={ds.sourceId} />
      {isAdmin && <IngestKeyRow dataSource={ds} />}
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 12px' }}>
        Next: build a dashboard on it — pick a template or add widgets, then publish or share it.
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        <Button type="primary" icon={<AppstoreAddOutlined />} onClick={() => navigateAdmin('dashboard-builder', 'builder')}>Build a dashboard</Button>
        <Button icon={<DatabaseOutlined />} onClick={() => navigateAdmin('data-sources', 'overview')}>See the data source</Button>
      </Flex>
    </Card>
  );
}
