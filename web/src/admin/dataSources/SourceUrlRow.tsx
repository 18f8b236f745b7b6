import { Button, Flex, Tooltip, Typography } from 'antd';
import { CopyOutlined, LinkOutlined } from '@ant-design/icons';
import { copyText, useToast } from '../ui/toast';

/** A source's own URL: where any client POSTs JSON, NDJSON or CSV (with the ingest key). */
export const sourceRecordsUrl = (sourceId: string) => `${window.location.origin}/api/data/sources/${encodeURIComponent(sourceId)}/records`;

export function SourceUrlRow({ sourceId }: { sourceId: string }) {
  const toast = useToast();
  const url = sourceRecordsUrl(sourceId);
  return (
    <Flex align="center" gap={4} wrap style={{ margin: '4px 0' }}>
      <LinkOutlined />
      <Typography.Text type="secondary">URL:</Typography.Text>
      <Typography.Text code data-testid="source-url" style={{ wordBreak: 'break-all' }}>{url}</Typography.Text>
      <Tooltip title="Copy the source's URL">
        <Button
          size="small"
          type="text"
          aria-label="Copy source URL"
          icon={<CopyOutlined />}
          onClick={async () => {
            await copyText(url);
            toast.success('Source URL copied to clipboard');
          }}
        />
      </Tooltip>
    </Flex>
  );
}
