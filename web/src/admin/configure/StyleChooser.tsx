import { Card, Col, Row, Typography } from 'antd';
import { AppstoreOutlined, TableOutlined } from '@ant-design/icons';
import type { TabStyle } from '@common/schemas/dashboard';

const CHOICES: { style: TabStyle; title: string; text: string; icon: React.ReactNode }[] = [
  { style: 'table', title: 'Table Style', text: 'sortable, filterable table format with columns and rows', icon: <TableOutlined /> },
  { style: 'bucket', title: 'Bucket Style', text: 'group and organize data into customizable buckets', icon: <AppstoreOutlined /> },
];

/** "Select Style for <tab name>": Table Style or Bucket Style (spec 2.10). */
export function StyleChooser({ tabName, onChoose }: { tabName: string; onChoose(style: TabStyle): void }) {
  return (
    <div style={{ maxWidth: 760, margin: '32px auto' }} data-testid="style-chooser">
      <Typography.Title level={4} style={{ textAlign: 'center' }}>Select Style for {tabName}</Typography.Title>
      <Row gutter={16}>
        {CHOICES.map((c) => (
          <Col span={12} key={c.style}>
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
