import { Badge, Button, Card, Empty, Flex, Skeleton, theme } from 'antd';
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { TabConfiguration } from '@common/schemas/dashboard';
import { formatValue } from '@common/formats';
import { fieldTypeOf, typedFormat } from '@common/types/fieldTyping';
import { fieldValue } from '../../cells';
import { BucketCard, useCardLook, type CardLook } from './BucketCard';
import { bucketGridStyle, bucketKeyOf, bucketOrderOf, bucketWidthOf, groupIds, orderedGroups, UNASSIGNED } from './bucketModel';
import { EmptyText } from '../EmptyText';
import { orderedRecords } from '../recordStore';
import { useFeedRecord, useFeedVersion, useWidgetEnv } from '../widgets/widgetContext';
import { useTvPaging } from '../tv/useTvPaging';

/** Cards a group draws at first, and how many more each time its end scrolls into view. */
const CARDS_FIRST = 12;
const CARDS_MORE = 36;
/** Groups drawn at first, and how many more each time the board's end scrolls into view. */
const GROUPS_FIRST = 12;
const GROUPS_MORE = 12;
/** The bucket key while the board's first background render is under way. */
const DRAWING = '\u0000drawing';

export { highlightColor } from './bucketModel';

/**
 * Calls `onVisible` whenever the returned element comes near the viewport (or its scroll box):
 * boards draw more groups and cards as they scroll, so a 10,000-record board opens at once.
 */
function useNearEnd(onVisible: () => void, active: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || !active) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && callback.current(), { rootMargin: '400px' });
    io.observe(el);
    return () => io.disconnect();
  }, [active]);
  return ref;
}

/**
 * Records grouped by the bucket key, one card per record, columns of the
 * Bucket Width, over the records of the page's feed (the viewer's store, or the builder's preview).
 */
export function BucketView({ configuration }: { configuration: TabConfiguration }) {
  const configuredKey = bucketKeyOf(configuration);
  // The board is first drawn in a background render (React slices it into short tasks), so opening
  // a tab of 10,000 records does not freeze the page: the first, urgent render shows a skeleton.
  const bucketKey = useDeferredValue(configuredKey, DRAWING);
  const { feed, keyMappings: labels } = useWidgetEnv();
  const version = useDeferredValue(useFeedVersion());
  const groups = useMemo(
    () => (bucketKey && bucketKey !== DRAWING ? groupIds(orderedRecords(feed.get()), (r) => fieldValue(r, bucketKey), (r) => r.recordId) : new Map<string, string[]>()),
    // `version` stands for the feed's records.
    [bucketKey, feed, version],
  );
  const [groupLimit, setGroupLimit] = useState(GROUPS_FIRST);
  const more = useNearEnd(() => setGroupLimit((n) => n + GROUPS_MORE), groups.size > groupLimit);
  const look = useCardLook();

  if (bucketKey === DRAWING) return <Skeleton active data-testid="bucket-skeleton" />;
  if (!bucketKey) {
    return <Card><Empty description={<EmptyText title="No Bucket Key Configured" text="Configure a bucket key to group records." />} /></Card>;
  }
  if (groups.size === 0) {
    return <Card><Empty description={<EmptyText title="No Data Available" text="No records found for this bucket configuration." />} /></Card>;
  }
  const shown = orderedGroups(groups, bucketOrderOf(configuration), configuration.bucketGroups).slice(0, groupLimit);
  return (
    <>
      <div data-testid="bucket-grid" data-width={bucketWidthOf(configuration)} style={bucketGridStyle(bucketWidthOf(configuration))}>
        {shown.map(([name, ids]) => (
          <BucketGroup key={name} name={name} ids={ids} configuration={configuration} labels={labels} look={look} />
        ))}
      </div>
      {groups.size > groupLimit && (
        <div ref={more} style={{ padding: 16, textAlign: 'center' }}>
          <Button onClick={() => setGroupLimit((n) => n + GROUPS_MORE)}>Show more groups ({groups.size - groupLimit} more)</Button>
        </div>
      )}
    </>
  );
}

interface GroupProps {
  name: string;
  ids: string[];
  configuration: TabConfiguration;
  labels: Record<string, string>;
  look: CardLook;
}

const BucketGroup = memo(function BucketGroup({ name, ids, configuration, labels, look }: GroupProps) {
  const [limit, setLimit] = useState(CARDS_FIRST);
  const { token } = theme.useToken();
  const title = useGroupTitle(name, ids[0], bucketKeyOf(configuration));
  const hasMore = ids.length > limit;
  const more = useNearEnd(() => setLimit((n) => n + CARDS_MORE), hasMore);
  const body = useRef<HTMLDivElement>(null);
  useTvPaging(body);
  return (
    <Card
      data-testid="bucket-group"
      size="small"
      style={{ minWidth: 0 }}
      title={<Flex gap={8} align="center"><span data-testid="bucket-title" title={title === name ? undefined : name}>{title}</span><Badge count={ids.length} showZero overflowCount={99999} color={token.colorPrimary} /></Flex>}
      styles={{ body: { background: token.colorFillQuaternary, padding: 0 } }}
    >
      <Flex vertical gap={8} ref={body} data-testid="bucket-cards" style={{ maxHeight: 640, overflowY: 'auto', padding: 12 }}>
        {ids.slice(0, limit).map((id) => <RecordCard key={id} recordId={id} configuration={configuration} labels={labels} look={look} />)}
        {hasMore && (
          <div ref={more}>
            <Button block onClick={() => setLimit((n) => n + CARDS_MORE)}>Show more ({(ids.length - limit).toLocaleString()} more)</Button>
          </div>
        )}
      </Flex>
    </Card>
  );
});

/**
 * A group's title: its value as the cards show it when the bucket key is a date-time field
 * ("Jan 7, 2005" for every spelling of that moment), else the value itself.
 */
function useGroupTitle(name: string, firstId: string | undefined, bucketKey: string): string {
  const { typing } = useWidgetEnv();
  const record = useFeedRecord(firstId ?? '');
  if (name === UNASSIGNED || fieldTypeOf(typing, bucketKey) !== 'datetime' || !record) return name;
  return formatValue(bucketKey, fieldValue(record, bucketKey), typedFormat(typing, bucketKey)).text;
}

/** One record card; it selects its own record so a pushed change re-renders this card alone. */
const RecordCard = memo(function RecordCard({ recordId, configuration, labels, look }: { recordId: string; configuration: TabConfiguration; labels: Record<string, string>; look: CardLook }) {
  const record = useFeedRecord(recordId);
  const { typing } = useWidgetEnv();
  if (!record) return null;
  return (
    <BucketCard
      typing={typing}
      recordId={record.recordId}
      value={(k) => fieldValue(record, k)}
      displayKeys={configuration.displayKeys ?? []}
      rules={configuration.highlightRules}
      labels={labels}
      look={look}
    />
  );
});
