import { Card, Empty, Flex } from 'antd';
import type { PublicTabDto, TabConfiguration } from '@common/schemas/dashboard';
import { BucketView } from './BucketView';
import { TableView } from './TableView';
import { EmptyText } from './EmptyText';

/** One view of the records: "table" is a table, any other type a bucket board. */
function View({ type, configuration }: { type: string | null; configuration: TabConfiguration }) {
  return type === 'table' ? <TableView configuration={configuration} /> : <BucketView configuration={configuration} />;
}

/** A tab: its visible widgets, or — without widgets — the tab itself by its own type. */
export function TabContent({ tab }: { tab: PublicTabDto }) {
  if (tab.widgets.length === 0) return <View type={tab.type ?? 'table'} configuration={tab.configuration ?? {}} />;
  const visible = tab.widgets.filter((w) => w.visible !== false);
  if (visible.length === 0) {
    return (
      <Card>
        <Empty description={<EmptyText title="No Widgets" text="This tab has no visible widgets configured." />} />
      </Card>
    );
  }
  return (
    <Flex vertical gap={16}>
      {visible.map((w) => (
        <Card key={w.id} title={w.name || w.id} data-testid="widget" styles={{ body: { padding: 12 } }}>
          <View type={w.type === 'table' ? 'table' : 'bucket'} configuration={w.configuration ?? {}} />
        </Card>
      ))}
    </Flex>
  );
}
