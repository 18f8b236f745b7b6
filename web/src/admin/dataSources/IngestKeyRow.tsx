import { Button, Flex, Popconfirm, Tooltip, Typography } from 'antd';
import { KeyOutlined, ReloadOutlined } from '@ant-design/icons';
import type { DataSourceDto, DataSourceWithKeyDto } from '@common/schemas/dataSource';
import { api } from '../../api/client';
import { useDataSources, useFreshIngestKeys } from '../stores/dataSources';
import { CopyButton } from '../ui/CopyButton';
import { useToastSubmit } from '../ui/toast';

/** The ingest key of a custom source: in full only right after creation or rotation, else its hint. */
export function IngestKeyRow({ dataSource: ds }: { dataSource: DataSourceDto }) {
  const fresh = useFreshIngestKeys((s) => s.keys[ds.id]);
  const submit = useToastSubmit();

  const rotate = () =>
    submit.run(async () => {
      const answer = await api.post<DataSourceWithKeyDto>(`/api/admin/data-sources/${encodeURIComponent(ds.id)}/ingest-key`);
      useFreshIngestKeys.getState().remember(ds.id, answer.ingestKey);
      const { ingestKey: _key, ...rest } = answer;
      useDataSources.getState().upsert(rest);
    }, { success: ['Ingest key rotated', 'Copy the new key now: it is shown in full only this once. The old key no longer works.'], failure: 'Error' });

  return (
    <Flex align="center" gap={4} wrap style={{ margin: '4px 0' }} data-testid="ingest-key">
      <KeyOutlined />
      <Typography.Text type="secondary">Ingest key:</Typography.Text>
      {fresh ? (
        <>
          <Typography.Text code data-testid="ingest-key-full" style={{ wordBreak: 'break-all' }}>{fresh}</Typography.Text>
          <CopyButton text={fresh} what="Ingest key" label="Copy ingest key" />
        </>
      ) : (
        <Tooltip title="The full key is shown only right after creation or rotation">
          <Typography.Text code data-testid="ingest-key-hint">{ds.ingestKeyHint ?? 'none'}</Typography.Text>
        </Tooltip>
      )}
      <Popconfirm
        title="Rotate ingest key"
        description="The current key stops working at once. Continue?"
        okText="Rotate"
        onConfirm={rotate}
      >
        <Button size="small" type="link" icon={<ReloadOutlined />} loading={submit.busy}>Rotate</Button>
      </Popconfirm>
    </Flex>
  );
}
