import { Badge, Card, Flex, Typography, theme } from 'antd';
import { ReadableTag } from '../PublicTheme';

const ROWS: [string, string, string, string][] = [
  ['#1042', 'Webhook deliveries failing with 502', 'open', 'high'],
  ['#1041', 'Invoice shows the wrong VAT rate', 'in progress', 'medium'],
  ['#1039', 'Export to CSV times out', 'closed', 'low'],
  ['#1037', 'SSO redirect loop on Safari', 'open', 'medium'],
];
const STATUS: Record<string, string> = { open: 'blue', 'in progress': 'gold', closed: 'green' };
const PRIORITY: Record<string, string> = { high: 'red', medium: 'gold', low: 'blue' };

/** A static picture of a live dashboard, drawn with the same components as the real viewer. */
export function HeroPreview() {
  const { token } = theme.useToken();
  return (
    <Card
      aria-hidden
      style={{ width: '100%', maxWidth: 760, margin: '0 auto', boxShadow: token.boxShadowSecondary, textAlign: 'left' }}
      styles={{ body: { padding: 0 } }}
    >
      <Flex justify="space-between" align="center" gap={8} wrap style={{ padding: '12px 16px', borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Typography.Text strong>Support Overview</Typography.Text>
        <Badge status="processing" color={token.colorSuccess} text="Live • Updates every 30s" />
      </Flex>
      {ROWS.map(([id, subject, status, priority], i) => (
        <Flex key={id} align="center" gap={12} style={{ padding: '10px 16px', background: i % 2 ? token.colorFillQuaternary : undefined, minWidth: 0 }}>
          <Typography.Text type="secondary" style={{ flex: 'none', width: 48 }}>{id}</Typography.Text>
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>{subject}</Typography.Text>
          <ReadableTag color={STATUS[status]} style={{ marginInlineEnd: 0 }}>{status}</ReadableTag>
          <ReadableTag color={PRIORITY[priority]} style={{ marginInlineEnd: 0 }}>{priority}</ReadableTag>
        </Flex>
      ))}
    </Card>
  );
}
