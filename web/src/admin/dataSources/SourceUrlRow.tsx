import { Flex, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { CopyButton } from '../ui/CopyButton';

/** A source's own URL: where any client POSTs JSON, NDJSON or CSV (with the ingest key). */
export const sourceRecordsUrl = (sourceId: string) => `${window.location.origin}/api/data/sources/${encodeURIComponent(sourceId)}/records`;

export function SourceUrlRow({ sourceId }: { sourceId: string }) {
  const url = sourceRecordsUrl(sourceId);
  return (
    <Flex align="center" gap={4} wrap style={{ margin: '4px 0' }}>
      <LinkOutlined />
      <Typography.Text type="secondary">URL:</Typography.Text>
      <Typography.Text code data-testid="source-url" style={{ wordBreak: 'break-all' }}>{url}</Typography.Text>
      <CopyButton text={url} what="Source URL" label="Copy source URL" />
    </Flex>
  );
}
