import { Alert, Button, Card, Flex, Tag, Typography } from 'antd';
import { ApiOutlined, DeleteOutlined, EditOutlined, EyeOutlined, FieldStringOutlined } from '@ant-design/icons';
import { sourceKind } from '@common/constants';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { navigateAdmin } from '../shell/nav';
import { CopyButton } from '../ui/CopyButton';
import { IngestKeyRow } from './IngestKeyRow';
import { SourceUrlRow } from './SourceUrlRow';
import { RetentionRow } from './RetentionText';
import { useCan } from '../../api/session';

const KIND_LABEL = { custom: 'Custom', integration: 'Integration', other: 'Other' } as const;
const KIND_COLOR = { custom: 'blue', integration: 'purple', other: 'default' } as const;

interface Props {
  dataSource: DataSourceDto;
  onView(ds: DataSourceDto): void;
  onEdit(ds: DataSourceDto): void;
  /** The source's fields and their types (FieldTypesDialog). */
  onFields(ds: DataSourceDto): void;
  onDelete(ds: DataSourceDto): void;
}

/** One data source card: its details, URL, ingest key, record count, retention and actions. */
export function DataSourceCard({ dataSource: ds, onView, onEdit, onFields, onDelete }: Props) {
  // Editors read sources; changing, rotating keys and deleting are for admins.
  const isAdmin = useCan('admin');
  const kind = sourceKind(ds.sourceId);
  const custom = kind === 'custom';
  return (
    <Card size="small" data-testid="data-source-card" data-source-id={ds.sourceId} style={{ marginBottom: 12 }}>
      <Flex justify="space-between" align="start" gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }} data-testid="data-source-name">{ds.name}</Typography.Title>
        <Flex gap={4}>
          <Tag color={ds.isActive ? 'green' : 'default'}>{ds.isActive ? 'Active' : 'Inactive'}</Tag>
          <Tag color={KIND_COLOR[kind]}>{KIND_LABEL[kind]}</Tag>
        </Flex>
      </Flex>
      <Flex align="center" gap={4} wrap style={{ marginTop: 4 }}>
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>Source ID:</Typography.Text>
        <Typography.Text code data-testid="source-id" style={{ wordBreak: 'break-all' }}>{ds.sourceId}</Typography.Text>
        <CopyButton text={ds.sourceId} what="Source ID" label="Copy Source ID" />
      </Flex>
      {ds.description && <Typography.Paragraph style={{ margin: '4px 0' }}>{ds.description}</Typography.Paragraph>}
      <Flex gap={16} wrap style={{ margin: '4px 0' }}>
        {ds.appendOnly ? (
          <span data-testid="append-only">
            <Typography.Text type="secondary">Append-only: </Typography.Text>every record is kept, none is replaced
          </span>
        ) : (
          <span>
            <Typography.Text type="secondary">Primary key: </Typography.Text>
            {ds.primaryKey ? <Typography.Text code data-testid="primary-key">{ds.primaryKey}</Typography.Text> : <Typography.Text italic data-testid="primary-key">Not set</Typography.Text>}
          </span>
        )}
        {/* An append-only source never updates a record: no update mode to state. */}
        {!ds.appendOnly && (
          <span data-testid="update-mode">
            <Typography.Text type="secondary">Updates: </Typography.Text>
            {ds.updateMode === 'merge' ? 'merge the fields sent' : 'replace the record'}
          </span>
        )}
        <span data-testid="record-count">
          <Typography.Text type="secondary">Records: </Typography.Text>
          {ds.recordCount.toLocaleString()}
        </span>
      </Flex>
      {custom && <SourceUrlRow sourceId={ds.sourceId} />}
      <RetentionRow dataSource={ds} />
      {custom && isAdmin && <IngestKeyRow dataSource={ds} />}
      {custom && ds.recordCount === 0 && (
        <Alert
          type="info"
          showIcon
          style={{ margin: '8px 0' }}
          title="No data ingested yet"
          data-testid="no-data-banner"
          action={<Button size="small" onClick={() => navigateAdmin('api-docs', 'documentation', undefined, ds.id)}>How To Ingest Data</Button>}
        />
      )}
      <Flex gap={8} wrap style={{ marginTop: 8 }}>
        <Button icon={<EyeOutlined />} onClick={() => onView(ds)}>View Data Structure</Button>
        {isAdmin && <Button icon={<EditOutlined />} onClick={() => onEdit(ds)}>Edit</Button>}
        {isAdmin && <Button icon={<FieldStringOutlined />} onClick={() => onFields(ds)}>Fields</Button>}
        {custom && <Button icon={<ApiOutlined />} onClick={() => navigateAdmin('api-docs', 'examples', undefined, ds.id)}>API Examples</Button>}
        {custom && isAdmin && <Button danger icon={<DeleteOutlined />} onClick={() => onDelete(ds)}>Delete</Button>}
      </Flex>
    </Card>
  );
}
