import { BarChartOutlined, ClockCircleOutlined, FileTextOutlined, SettingOutlined } from '@ant-design/icons';
import { Card, Col, Flex, Row, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

const TEASERS: { icon: ReactNode; title: string; text: string }[] = [
  { icon: <BarChartOutlined />, title: 'Analytics', text: 'Advanced data visualization' },
  { icon: <FileTextOutlined />, title: 'Reports', text: 'Custom report generation' },
  { icon: <SettingOutlined />, title: 'Settings', text: 'Personalized preferences' },
];

/** The placeholder of every user-dashboard page except the public list (they are announced, not built). */
export default function ComingSoonPage() {
  const { token } = theme.useToken();
  return (
    <Card style={{ maxWidth: 880, margin: '0 auto' }} data-testid="coming-soon">
      <Flex vertical align="center" gap={8} style={{ textAlign: 'center', padding: '16px 0 24px' }}>
        <ClockCircleOutlined style={{ fontSize: 40, color: token.colorPrimary }} />
        <Typography.Title level={2} style={{ margin: 0 }}>Coming Soon</Typography.Title>
        <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 520 }}>
          The User Dashboard is under development. We&apos;re building a personal space for your analytics, reports and settings.
        </Typography.Paragraph>
      </Flex>
      <Row gutter={[16, 16]}>
        {TEASERS.map((t) => (
          <Col key={t.title} xs={24} md={8}>
            <Card size="small" style={{ height: '100%', background: token.colorFillAlter }}>
              <Flex vertical align="center" gap={4} style={{ textAlign: 'center' }}>
                <span style={{ fontSize: 24, color: token.colorPrimary }}>{t.icon}</span>
                <Typography.Text strong>{t.title}</Typography.Text>
                <Typography.Text type="secondary">{t.text}</Typography.Text>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
