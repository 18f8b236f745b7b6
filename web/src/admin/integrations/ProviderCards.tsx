import { Badge, Button, Card, Col, Row, Tag, Typography } from 'antd';
import { CloudOutlined, CustomerServiceOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

interface Provider {
  type: 'zendesk' | 'salesforce' | 'hubspot';
  name: string;
  text: string;
  icon: ReactNode;
  active: boolean;
}

const PROVIDERS: Provider[] = [
  { type: 'zendesk', name: 'Zendesk', text: 'Support tickets, users, organizations and custom statuses, synced incrementally.', icon: <CustomerServiceOutlined style={{ fontSize: 28, color: '#03363d' }} />, active: true },
  { type: 'salesforce', name: 'Salesforce', text: 'Cases, accounts and opportunities.', icon: <CloudOutlined style={{ fontSize: 28, color: '#00a1e0' }} />, active: false },
  { type: 'hubspot', name: 'HubSpot', text: 'Contacts, deals and tickets.', icon: <ShareAltOutlined style={{ fontSize: 28, color: '#ff7a59' }} />, active: false },
];

/** The provider cards: Zendesk active, the others Coming Soon and disabled. */
export function ProviderCards({ onConnect }: { onConnect(type: 'zendesk'): void }) {
  return (
    <Row gutter={[16, 16]}>
      {PROVIDERS.map((p) => (
        <Col xs={24} md={8} key={p.type}>
          <Card
            data-testid={`provider-${p.type}`}
            // A provider not yet available is greyed by its background, not faded: its text stays readable.
            style={{ height: '100%', background: p.active ? undefined : '#fafafa' }}
            title={<span>{p.icon} <span style={{ marginLeft: 8 }}>{p.name}</span></span>}
          >
            {/* In the body, not the header: at narrow widths a header badge crowds the provider name out. */}
            <div style={{ marginBottom: 8 }}>{p.active ? <Badge status="success" text="Available" /> : <Tag>Coming Soon</Tag>}</div>
            <Typography.Paragraph type="secondary" style={{ minHeight: 44 }}>{p.text}</Typography.Paragraph>
            <Button type={p.active ? 'primary' : 'default'} disabled={!p.active} block onClick={() => p.type === 'zendesk' && onConnect('zendesk')}>
              {p.active ? `Connect ${p.name}` : 'Coming Soon'}
            </Button>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
