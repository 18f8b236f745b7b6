import { Badge, Card, Empty, Flex, Typography, theme } from 'antd';
import { fieldValue } from '@common/cells';
import type { HighlightRule } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import type { FieldTyping } from '@common/types/fieldTyping';
import { BucketCard, useCardLook } from '../../../public/viewer/buckets/BucketCard';
import { bucketGridStyle, groupIds, orderedGroups, type BucketOrder } from '../../../public/viewer/buckets/bucketModel';

interface Props {
  records: RecordDto[];
  total: number;
  bucketKey: string | null;
  width: number;
  order: BucketOrder;
  listed: string[];
  displayKeys: string[];
  rules: HighlightRule[];
  labels: Record<string, string>;
  typing?: FieldTyping;
}

/** A live preview of the public bucket board from the first records: the same cards, at the chosen Bucket Width. */
export function BucketPreview({ records, total, bucketKey, width, order, listed, displayKeys, rules, labels, typing }: Props) {
  const look = useCardLook();
  const { token } = theme.useToken();
  const groups = bucketKey ? orderedGroups(groupIds(records, (r) => fieldValue(r.data, bucketKey), (r) => r.recordId), order, listed) : [];
  const byId = new Map(records.map((r) => [r.recordId, r]));
  return (
    <Card
      title="Preview"
      data-testid="bucket-preview"
      extra={<Typography.Text type="secondary">First {records.length} of {total.toLocaleString()} {total === 1 ? 'record' : 'records'}, columns at least {width} px wide</Typography.Text>}
      styles={{ body: { overflowX: 'auto' } }}
    >
      {!bucketKey ? (
        <Empty description="Choose a bucket key to see the cards." />
      ) : (
        <div style={bucketGridStyle(width)}>
          {groups.map(([name, ids]) => (
            <Card
              key={name}
              size="small"
              data-testid="preview-group"
              title={<Flex gap={8} align="center"><span>{name}</span><Badge count={ids.length} showZero color={token.colorPrimary} /></Flex>}
              styles={{ body: { background: token.colorFillQuaternary } }}
            >
              <Flex vertical gap={8}>
                {ids.map((id) => {
                  const r = byId.get(id)!;
                  return <BucketCard key={id} recordId={id} value={(k) => fieldValue(r.data, k)} displayKeys={displayKeys} rules={rules} labels={labels} look={look} typing={typing} />;
                })}
              </Flex>
            </Card>
          ))}
        </div>
      )}
    </Card>
  );
}
