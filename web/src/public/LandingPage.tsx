import { ArrowRightOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Col, Flex, Layout, Row, Tag, Typography, theme } from 'antd';
import { useEffect } from 'react';
import { HeroPreview } from './landing/HeroPreview';
import { Claims, FeatureGrid, Integrations, Steps } from './landing/LandingSections';
import { FOOTER_GROUPS, PRODUCT } from './landing/landingContent';
import { LinkButton } from './landing/LinkButton';

function Logo() {
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={8}>
      <span style={{ width: 32, height: 32, borderRadius: 9, background: `linear-gradient(135deg, ${token.colorPrimary}, ${token.purple})`, color: token.colorWhite, display: 'grid', placeItems: 'center', fontWeight: 800 }}>L</span>
      <Typography.Text strong style={{ fontSize: 18 }}>{PRODUCT}</Typography.Text>
    </Flex>
  );
}

/** The marketing landing page at /. */
export default function LandingPage() {
  const { token } = theme.useToken();
  useEffect(() => {
    document.title = `${PRODUCT} — real-time dashboards for data teams`;
  }, []);
  return (
    <Layout style={{ minHeight: '100vh', background: token.colorBgContainer }}>
      <header style={{ position: 'sticky', top: 0, zIndex: 10, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Flex align="center" justify="space-between" gap={8} wrap style={{ maxWidth: 1120, margin: '0 auto', padding: '10px 20px', minHeight: 60 }}>
          <Logo />
          <Flex gap={4} align="center" wrap>
            <LinkButton type="text" to="/dashboards" newTab>Dashboard</LinkButton>
            <LinkButton type="text" to="/admin" newTab>Admin</LinkButton>
            <LinkButton type="primary" to="/dashboards">Start Free Trial</LinkButton>
          </Flex>
        </Flex>
      </header>

      <main>
        <section style={{ padding: 'clamp(56px, 10vw, 120px) 20px clamp(48px, 8vw, 96px)', background: `radial-gradient(ellipse at top, ${token.colorPrimaryBg}, ${token.colorBgContainer} 70%)` }}>
          <Flex vertical align="center" gap={20} style={{ maxWidth: 820, margin: '0 auto', textAlign: 'center' }}>
            <Tag color="blue" style={{ marginInlineEnd: 0, padding: '2px 12px', borderRadius: 999 }}>Real-time data dashboards for data teams</Tag>
            <Typography.Title style={{ margin: 0, fontSize: 'clamp(34px, 6vw, 60px)', lineHeight: 1.1 }}>
              Turn any JSON into live dashboards your whole team trusts
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 'clamp(16px, 2vw, 19px)', maxWidth: 640 }}>
              Ingest any structure through a REST API, build dashboards with drag and drop, and publish live views that update the moment your data changes.
            </Typography.Paragraph>
            <Flex gap={12} wrap justify="center">
              <LinkButton type="primary" size="large" icon={<PlayCircleOutlined />} to="/dashboards">See a Demo</LinkButton>
              <LinkButton size="large" to="/admin">View Dashboards</LinkButton>
            </Flex>
          </Flex>
          <div style={{ maxWidth: 1120, margin: 'clamp(32px, 6vw, 56px) auto 0' }}>
            <HeroPreview />
          </div>
        </section>

        <FeatureGrid />
        <Integrations />
        <Steps />
        <Claims />

        <section id="get-started" style={{ padding: 'clamp(48px, 8vw, 88px) 20px' }}>
          <Flex vertical align="center" gap={16} style={{ maxWidth: 960, margin: '0 auto', textAlign: 'center', padding: 'clamp(32px, 6vw, 56px) 24px', borderRadius: 24, background: `linear-gradient(135deg, ${token.colorPrimary}, ${token.purple7})` }}>
            <Typography.Title level={2} style={{ margin: 0, color: token.colorWhite, fontSize: 'clamp(24px, 4vw, 34px)' }}>Ready to see your data live?</Typography.Title>
            <Typography.Text style={{ color: token.colorWhite, opacity: 0.9, fontSize: 16, maxWidth: 560 }}>
              Start with the demo dashboards, then connect your own sources in minutes.
            </Typography.Text>
            <Flex gap={12} wrap justify="center">
              <LinkButton size="large" to="/dashboards" icon={<ArrowRightOutlined />} iconPlacement="end">Start Free Trial</LinkButton>
              <LinkButton size="large" ghost to="/admin">View Demo</LinkButton>
            </Flex>
          </Flex>
        </section>
      </main>

      <footer style={{ borderTop: `1px solid ${token.colorBorderSecondary}`, padding: '48px 20px 32px', background: token.colorFillQuaternary }}>
        <div style={{ maxWidth: 1120, margin: '0 auto' }}>
          <Row gutter={[32, 32]}>
            <Col xs={24} md={9}>
              <Logo />
              <Typography.Paragraph type="secondary" style={{ marginTop: 12, maxWidth: 320 }}>
                The real-time data dashboard platform for data teams.
              </Typography.Paragraph>
            </Col>
            {FOOTER_GROUPS.map((g) => (
              <Col key={g.title} xs={12} sm={8} md={5}>
                <Typography.Text strong>{g.title}</Typography.Text>
                <Flex vertical gap={8} style={{ marginTop: 12 }}>
                  {g.links.map((l) => (
                    <Typography.Link key={l.label} href={l.href} type="secondary">{l.label}</Typography.Link>
                  ))}
                </Flex>
              </Col>
            ))}
          </Row>
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 40, fontSize: 13 }}>
            © 2024 {PRODUCT}. All rights reserved.
          </Typography.Text>
        </div>
      </footer>
    </Layout>
  );
}
