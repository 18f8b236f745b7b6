import { Badge, Button, Card, Col, Empty, Flex, Row, Typography, theme } from 'antd';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import type { HighlightRule, TabConfiguration } from '@common/schemas/dashboard';
import { cellText, fieldValue, isEmptyValue } from '../cells';
import { EmptyText } from './EmptyText';
import { currentRecords, useViewerStore } from './viewerStore';
import { useKeyMappings } from './useKeyMappings';

const PAGE = 60;
type ColorToken = 'red' | 'yellow' | 'green' | 'blue' | 'purple';
const RULE_COLORS: readonly string[] = ['red', 'yellow', 'green', 'blue', 'purple'];

/** The border colour name of a record: the first highlight rule whose field equals its value, else gray. */
export function highlightColor(rules: HighlightRule[] | undefined, value: (key: string) => unknown): string {
  const hit = (rules ?? []).find((r) => !isEmptyValue(r.key) && String(value(r.key) ?? '') === r.value);
  const color = hit?.color.toLowerCase();
  return color && RULE_COLORS.includes(color) ? color : 'gray';
}

/** Records grouped by the bucket key, one card per record (spec 2.13, bucket view). */
export function BucketView({ configuration }: { configuration: TabConfiguration }) {
  const bucketKey = configuration.bucketKey || configuration.buckets?.[0]?.key || '';
  const version = useDeferredValue(useViewerStore((s) => s.version));
  const groups = useMemo(() => {
    const out = new Map<string, string[]>();
    if (!bucketKey) return out;
    for (const r of currentRecords()) {
      const v = fieldValue(r, bucketKey);
      const name = isEmptyValue(v) ? 'Unassigned' : String(v);
      let list = out.get(name);
      if (!list) out.set(name, (list = []));
      list.push(r.recordId);
    }
    return out;
  }, [bucketKey, version]);

  if (!bucketKey) {
    return <Card><Empty description={<EmptyText title="No Bucket Key Configured" text="Configure a bucket key to group records." />} /></Card>;
  }
  if (groups.size === 0) {
    return <Card><Empty description={<EmptyText title="No Data Available" text="No records found for this bucket configuration." />} /></Card>;
  }
  // Three columns from 992 px (antd lg), two on tablets, one on phones (spec 9: bucket grid of 3).
  return (
    <Row gutter={[16, 16]} data-testid="bucket-grid">
      {[...groups].map(([name, ids]) => (
        <Col key={name} xs={24} md={12} lg={8}>
          <BucketGroup name={name} ids={ids} configuration={configuration} />
        </Col>
      ))}
    </Row>
  );
}

function BucketGroup({ name, ids, configuration }: { name: string; ids: string[]; configuration: TabConfiguration }) {
  const [shown, setShown] = useState(PAGE);
  const { token } = theme.useToken();
  return (
    <Card
      data-testid="bucket-group"
      size="small"
      title={<Flex gap={8} align="center"><span data-testid="bucket-title">{name}</span><Badge count={ids.length} showZero overflowCount={99999} color={token.colorPrimary} /></Flex>}
      styles={{ body: { background: token.colorFillQuaternary, maxHeight: 640, overflowY: 'auto' } }}
    >
      <Flex vertical gap={8}>
        {ids.slice(0, shown).map((id) => <RecordCard key={id} recordId={id} configuration={configuration} />)}
        {ids.length > shown && <Button onClick={() => setShown((n) => n + PAGE * 5)}>Show more ({ids.length - shown} more)</Button>}
      </Flex>
    </Card>
  );
}

/** One record card; it selects its own record so a pushed change re-renders this card alone. */
const RecordCard = memo(function RecordCard({ recordId, configuration }: { recordId: string; configuration: TabConfiguration }) {
  const record = useViewerStore((s) => s.records.get(recordId));
  const labels = useKeyMappings();
  const { token } = theme.useToken();
  if (!record) return null;
  const color = highlightColor(configuration.highlightRules, (k) => fieldValue(record, k));
  const border = color === 'gray' ? token.colorBorder : token[color as ColorToken];
  const keys = configuration.displayKeys ?? [];
  return (
    <div data-testid="bucket-card" data-color={color} style={{ background: token.colorBgContainer, border: `2px solid ${border}`, borderRadius: token.borderRadiusLG, padding: '8px 12px' }}>
      {keys.length === 0 ? (
        <Typography.Text>Record ID: {record.recordId}</Typography.Text>
      ) : (
        keys.map((k) => {
          const v = fieldValue(record, k);
          return (
            <div key={k} style={{ display: 'flex', gap: 8, minWidth: 0 }}>
              <Typography.Text type="secondary" style={{ flex: 'none' }}>{labels[k] ?? k}:</Typography.Text>
              <Typography.Text ellipsis style={{ minWidth: 0 }}>{isEmptyValue(v) ? 'N/A' : cellText(v).text}</Typography.Text>
            </div>
          );
        })
      )}
    </div>
  );
});
