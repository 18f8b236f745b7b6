import { Alert, Button, Card, Flex, Typography } from 'antd';
import { AppstoreAddOutlined, DatabaseOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import type { DataSourceWithKeyDto } from '@common/schemas/dataSource';
import { api, errorText } from '../../api/client';
import { useCan } from '../../api/session';
import { IngestKeyRow } from '../dataSources/IngestKeyRow';
import { SourceUrlRow } from '../dataSources/SourceUrlRow';
import { navigateAdmin } from '../shell/nav';
import { useDataSources, useFreshIngestKeys } from '../stores/dataSources';

/** Sources whose first key this screen has issued (once per page, whatever re-renders). */
const issued = new Set<string>();

/**
 * The full ingest key of a source an import just created. The import keeps its key to itself, and
 * nobody has used it yet: a new one is issued here (the key rotated once, before any sender has it)
 * and shown in full this once, as a source created by hand shows its key at creation.
 */
function useFirstKey(dataSourceId: string, active: boolean): string | null {
  const fresh = useFreshIngestKeys((s) => s.keys[dataSourceId]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!active || fresh || issued.has(dataSourceId)) return;
    issued.add(dataSourceId);
    api.post<DataSourceWithKeyDto>(`/api/admin/data-sources/${encodeURIComponent(dataSourceId)}/ingest-key`).then(
      ({ ingestKey, ...rest }) => {
        useFreshIngestKeys.getState().remember(dataSourceId, ingestKey);
        useDataSources.getState().upsert(rest);
      },
      (e: unknown) => setProblem(errorText(e)),
    );
  }, [active, fresh, dataSourceId]);
  return problem;
}

/**
 * After an import: where the source's records go from now on (its URL and ingest key, with copy
 * buttons) and the next step, a dashboard on it.
 */
export function ImportNextStep({ dataSourceId, created }: { dataSourceId: string; created: boolean }) {
  const ds = useDataSources((s) => s.items.find((d) => d.id === dataSourceId));
  const isAdmin = useCan('admin');
  const fresh = useFreshIngestKeys((s) => s.keys[dataSourceId]);
  const keyProblem = useFirstKey(dataSourceId, created && isAdmin);
  useEffect(() => {
    // A source the import created may not be in the list yet.
    if (!ds) void useDataSources.getState().load();
  }, [ds]);
  if (!ds) return null;
  return (
    <Card size="small" style={{ marginTop: 16 }} data-testid="import-next-step" title={`Send more records to "${ds.name}"`}>
      <SourceUrlRow sourceId={ds.sourceId} />
      {isAdmin && <IngestKeyRow dataSource={ds} />}
      {created && fresh && <Alert type="info" showIcon style={{ margin: '4px 0 8px' }} title="Copy the ingest key now: it is shown in full only this once. Senders use it to write to this source." data-testid="ingest-key-once" />}
      {keyProblem && <Alert type="warning" showIcon style={{ margin: '4px 0 8px' }} title={`The ingest key could not be shown: ${keyProblem}. Rotate it to get one.`} />}
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
