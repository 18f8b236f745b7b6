import { Badge, Button, Card, Col, Row, Tag, Typography } from 'antd';
import { CloudOutlined, ConsoleSqlOutlined, CustomerServiceOutlined, DatabaseOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { PULL_FORMS } from './forms/registry';

/** What a provider card may start: Zendesk's OAuth wizard, or an API's or a database's form. */
export type ProviderType = 'zendesk' | 'api' | 'postgres' | 'mysql';

interface Provider {
  type: ProviderType | 'salesforce' | 'hubspot';
  name: string;
  text: string;
  icon: ReactNode;
  active: boolean;
}

const pull = (type: 'api' | 'postgres' | 'mysql', name: string, text: string, icon: ReactNode): Provider => {
  const form = PULL_FORMS[type];
  return form ? { type, name: form.label, text: form.blurb, icon: form.icon, active: true } : { type, name, text, icon, active: false };
};

const PROVIDERS: Provider[] = [
  { type: 'zendesk', name: 'Zendesk', text: 'Support tickets, users, organizations and custom statuses, synced incrementally.', icon: <CustomerServiceOutlined style={{ fontSize: 28, color: '#03363d' }} />, active: true },
  pull('api', 'HTTP API', 'Any JSON API, page by page, into a data source.', null),
  pull('postgres', 'PostgreSQL', 'A SQL query, read in batches, newer rows only on later syncs.', <DatabaseOutlined style={{ fontSize: 28, color: '#336791' }} />),
  pull('mysql', 'MySQL', 'MySQL or MariaDB: a SQL query, read in batches.', <ConsoleSqlOutlined style={{ fontSize: 28, color: '#00758f' }} />),
  { type: 'salesforce', name: 'Salesforce', text: 'Cases, accounts and opportunities.', icon: <CloudOutlined style={{ fontSize: 28, color: '#00a1e0' }} />, active: false },
  { type: 'hubspot', name: 'HubSpot', text: 'Contacts, deals and tickets.', icon: <ShareAltOutlined style={{ fontSize: 28, color: '#ff7a59' }} />, active: false },
];

/** The provider cards: Zendesk, the HTTP API and the databases whose form is there; the others Coming Soon and disabled. */
export function ProviderCards({ onConnect }: { onConnect(type: ProviderType): void }) {
  return (
    <Row gutter={[16, 16]}>
      {PROVIDERS.map((p) => (
        <Col xs={24} md={12} xl={8} key={p.type}>
          <Card
            data-testid={`provider-${p.type}`}
            // A provider not yet available is greyed by its background, not faded: its text stays readable.
            style={{ height: '100%', background: p.active ? undefined : '#fafafa' }}
            title={<span>{p.icon} <span style={{ marginLeft: 8 }}>{p.name}</span></span>}
          >
            {/* In the body, not the header: at narrow widths a header badge crowds the provider name out. */}
            <div style={{ marginBottom: 8 }}>{p.active ? <Badge status="success" text="Available" /> : <Tag>Coming Soon</Tag>}</div>
            <Typography.Paragraph type="secondary" style={{ minHeight: 44 }}>{p.text}</Typography.Paragraph>
            <Button type={p.active ? 'primary' : 'default'} disabled={!p.active} block onClick={() => p.active && onConnect(p.type as ProviderType)}>
              {p.active ? `Connect ${p.name}` : 'Coming Soon'}
            </Button>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
