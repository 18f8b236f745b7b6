import { Card, Col, Flex, Row, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { CLAIMS, FEATURES, INTEGRATIONS, STEPS, TRUST_ICON, type Feature } from './landingContent';

/** A page section with a centred heading. */
export function Section({ id, eyebrow, title, text, children, tinted }: { id: string; eyebrow: string; title: string; text?: string; children: ReactNode; tinted?: boolean }) {
  const { token } = theme.useToken();
  return (
    <section id={id} style={{ padding: 'clamp(48px, 8vw, 88px) 20px', background: tinted ? token.colorFillQuaternary : undefined, scrollMarginTop: 64 }}>
      <div style={{ maxWidth: 1120, margin: '0 auto' }}>
        <Flex vertical align="center" gap={8} style={{ textAlign: 'center', marginBottom: 40 }}>
          <Typography.Text strong style={{ color: token.colorPrimary, letterSpacing: 1, textTransform: 'uppercase', fontSize: 13 }}>{eyebrow}</Typography.Text>
          <Typography.Title level={2} style={{ margin: 0, fontSize: 'clamp(26px, 4vw, 36px)' }}>{title}</Typography.Title>
          {text && <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 620, fontSize: 16 }}>{text}</Typography.Paragraph>}
        </Flex>
        {children}
      </div>
    </section>
  );
}

function IconBox({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <span style={{ width: 44, height: 44, flex: 'none', borderRadius: 12, display: 'grid', placeItems: 'center', fontSize: 20, color: token.colorPrimary, background: token.colorPrimaryBg }}>
      {children}
    </span>
  );
}

function FeatureCard({ f }: { f: Feature }) {
  return (
    <Card style={{ height: '100%' }} hoverable>
      <Flex vertical gap={12}>
        <IconBox>{f.icon}</IconBox>
        <Typography.Title level={4} style={{ margin: 0 }}>{f.title}</Typography.Title>
        <Typography.Text type="secondary">{f.text}</Typography.Text>
      </Flex>
    </Card>
  );
}

export function FeatureGrid() {
  return (
    <Section id="features" eyebrow="Features" title="Everything a data team needs to go live" text="From raw JSON to a shareable, always-current dashboard in minutes.">
      <Row gutter={[20, 20]}>
        {FEATURES.map((f) => <Col key={f.title} xs={24} sm={12} lg={8}><FeatureCard f={f} /></Col>)}
      </Row>
    </Section>
  );
}

export function Integrations() {
  return (
    <Section id="integrations" eyebrow="Integrations" title="Bring data from wherever it lives" text="Connect a support desk in a few clicks, or push from anything that speaks HTTP." tinted>
      <Row gutter={[16, 16]}>
        {INTEGRATIONS.map((f) => (
          <Col key={f.title} xs={24} sm={12} lg={8}>
            <Card size="small" style={{ height: '100%' }}>
              <Flex gap={12} align="center">
                <IconBox>{f.icon}</IconBox>
                <div><Typography.Text strong>{f.title}</Typography.Text><br /><Typography.Text type="secondary">{f.text}</Typography.Text></div>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
    </Section>
  );
}

export function Steps() {
  const { token } = theme.useToken();
  return (
    <Section id="how-it-works" eyebrow="How it works" title="Three steps to live insights">
      <Row gutter={[24, 24]}>
        {STEPS.map((s, i) => (
          <Col key={s.title} xs={24} md={8}>
            <Flex vertical align="center" gap={12} style={{ textAlign: 'center' }}>
              <span style={{ width: 56, height: 56, borderRadius: '50%', display: 'grid', placeItems: 'center', background: token.colorPrimary, color: token.colorWhite, fontSize: 22, fontWeight: 700 }}>{i + 1}</span>
              <Typography.Title level={4} style={{ margin: 0 }}>{s.title}</Typography.Title>
              <Typography.Text type="secondary" style={{ maxWidth: 300 }}>{s.text}</Typography.Text>
            </Flex>
          </Col>
        ))}
      </Row>
    </Section>
  );
}

export function Claims() {
  const { token } = theme.useToken();
  return (
    <Section id="trust" eyebrow="Trust" title="Built for teams that can't afford downtime" tinted>
      <Row gutter={[16, 16]}>
        {CLAIMS.map((c) => (
          <Col key={c.value} xs={12} md={8} lg={4}>
            <Card size="small" style={{ height: '100%', textAlign: 'center' }}>
              <Flex vertical align="center" gap={4}>
                <span style={{ color: token.colorSuccess, fontSize: 18 }}>{TRUST_ICON}</span>
                <Typography.Text strong style={{ fontSize: 18 }}>{c.value}</Typography.Text>
                <Typography.Text type="secondary">{c.label}</Typography.Text>
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
    </Section>
  );
}
