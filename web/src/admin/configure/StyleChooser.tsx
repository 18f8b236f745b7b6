import { App, Card, Col, Flex, Row, Segmented, Typography } from 'antd';
import { AppstoreOutlined, TableOutlined } from '@ant-design/icons';
import type { DashboardTab, TabStyle } from '@common/schemas/dashboard';

const CHOICES: { style: TabStyle; title: string; text: string; icon: React.ReactNode }[] = [
  { style: 'table', title: 'Table Style', text: 'sortable, filterable table format with columns and rows', icon: <TableOutlined /> },
  { style: 'bucket', title: 'Bucket Style', text: 'group and organize data into customizable buckets', icon: <AppstoreOutlined /> },
];

/** "Select Style for <tab name>": Table Style or Bucket Style. */
export function StyleChooser({ tabName, onChoose }: { tabName: string; onChoose(style: TabStyle): void }) {
  return (
    <div style={{ maxWidth: 760, margin: '32px auto' }} data-testid="style-chooser">
      <Typography.Title level={4} style={{ textAlign: 'center' }}>Select Style for {tabName}</Typography.Title>
      <Row gutter={[16, 16]}>
        {CHOICES.map((c) => (
          <Col xs={24} sm={12} key={c.style}>
            <Card
              hoverable
              role="button"
              tabIndex={0}
              onClick={() => onChoose(c.style)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onChoose(c.style)}
              style={{ textAlign: 'center', height: '100%' }}
            >
              <div style={{ fontSize: 36, color: '#2563eb' }}>{c.icon}</div>
              <Typography.Title level={5}>{c.title}</Typography.Title>
              <Typography.Text type="secondary">{c.text}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What switching a tab's style resets, in words (shown in the confirmation). */
export function switchConsequence(tab: DashboardTab, to: TabStyle): string {
  const c = tab.configuration ?? {};
  if (to === 'table') {
    const columns = c.columns?.length ?? 0;
    const reset = columns
      ? `Its column setup (${plural(columns, 'column')}: order, widths, hidden columns and formats) is reset: the table starts with every field of the data source.`
      : 'The table starts with every field of the data source.';
    return `${reset} The bucket settings are kept for a later switch back.`;
  }
  const hasBucket = Boolean(c.bucketKey || c.buckets?.length);
  const bucket = hasBucket
    ? `The bucket settings it had before (bucket key "${c.bucketKey ?? c.buckets?.[0]?.key}") come back.`
    : 'Nothing is grouped until you choose a bucket key.';
  return `${bucket} The table columns are not shown in bucket style, and switching back to table resets them.`;
}

/** The style of a configured tab, switchable (table ↔ bucket) after a confirmation that says what resets. */
export function StyleSwitch({ tab, onSwitch }: { tab: DashboardTab; onSwitch(style: TabStyle): void }) {
  const { modal } = App.useApp();
  const ask = (to: TabStyle) =>
    modal.confirm({
      title: `Switch "${tab.name}" to ${to === 'table' ? 'Table Style' : 'Bucket Style'}?`,
      content: switchConsequence(tab, to),
      okText: 'Switch style',
      cancelText: 'Cancel',
      onOk: () => onSwitch(to),
    });
  return (
    <Flex align="center" gap={8} wrap data-testid="style-switch">
      <Typography.Text type="secondary">Style:</Typography.Text>
      <Segmented<TabStyle>
        value={tab.style ?? 'table'}
        onChange={(to) => to !== tab.style && ask(to)}
        options={CHOICES.map((c) => ({ value: c.style, label: c.title, icon: c.icon }))}
        aria-label="Tab style"
      />
    </Flex>
  );
}
