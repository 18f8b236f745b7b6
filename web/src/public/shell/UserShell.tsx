import {
  AppstoreOutlined, BarChartOutlined, FileTextOutlined, HomeOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined,
} from '@ant-design/icons';
import { Button, Flex, Grid, Layout, Menu, Typography, theme, type MenuProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { SHELL_SECTIONS, shellTitle, type ShellSection } from './sections';
import { useDocumentTitle } from '../../useDocumentTitle';

/** Expanded and collapsed sidebar widths: 64 and 16 Tailwind units. */
export const SIDEBAR_WIDTH = 256;
export const SIDEBAR_COLLAPSED_WIDTH = 64;

const ICONS: Record<ShellSection, ReactNode> = { analytics: <BarChartOutlined />, reports: <FileTextOutlined />, settings: <SettingOutlined /> };
const ITEMS: MenuProps['items'] = [
  { key: '/dashboards', icon: <AppstoreOutlined />, label: 'Overview' },
  ...(Object.entries(SHELL_SECTIONS) as [ShellSection, (typeof SHELL_SECTIONS)[ShellSection]][]).map(([section, { title, pages }]) => ({
    key: section,
    icon: ICONS[section],
    label: title,
    children: pages.map((p) => ({ key: `/dashboards/${section}/${p}`, label: p[0].toUpperCase() + p.slice(1) })),
  })),
];

/** The user dashboard shell: collapsible sidebar with groups, title, Back to Home. */
export default function UserShell() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  // Measured before paint (layout effect), so the narrow header does not shift.
  const narrow = Grid.useBreakpoint().sm === false;
  const [collapsed, setCollapsed] = useState(() => typeof window !== 'undefined' && window.innerWidth < 768);
  const section = pathname.split('/')[2];
  const [open, setOpen] = useState<string[]>(section ? [section] : []);
  const title = shellTitle(pathname);
  useDocumentTitle(title);
  const path = pathname.replace(/\/$/, '');
  // A section's own address (e.g. /dashboards/analytics) highlights its Overview entry.
  const selected = path.split('/').length === 3 && section ? `${path}/overview` : path;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        theme="light"
        collapsible
        collapsed={collapsed}
        trigger={null}
        width={SIDEBAR_WIDTH}
        collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
        data-testid="user-sidebar"
        style={{ borderRight: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
      >
        <Flex align="center" gap={8} style={{ height: 64, padding: collapsed ? 0 : '0 20px', justifyContent: collapsed ? 'center' : 'flex-start' }}>
          <span style={{ width: 28, height: 28, borderRadius: 8, background: token.colorPrimary, color: '#fff', display: 'grid', placeItems: 'center', fontWeight: 700 }}>L</span>
          {!collapsed && <Typography.Text strong style={{ fontSize: 16 }}>User Access</Typography.Text>}
        </Flex>
        <Menu
          mode="inline"
          items={ITEMS}
          selectedKeys={[selected]}
          openKeys={collapsed ? undefined : open}
          onOpenChange={setOpen}
          onClick={({ key }) => navigate(key)}
          style={{ borderInlineEnd: 'none' }}
        />
      </Layout.Sider>
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}`, padding: '0 16px', display: 'flex', alignItems: 'center', gap: 12 }}>
          <Button
            type="text"
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => setCollapsed((c) => !c)}
          />
          {/* The page's one h1, at the size of an h4. */}
          <Typography.Title level={1} style={{ margin: 0, flex: 1, minWidth: 0, fontSize: token.fontSizeHeading4, lineHeight: token.lineHeightHeading4 }} ellipsis>
            {title}
          </Typography.Title>
          <Button icon={<HomeOutlined />} aria-label="Back to Home" title="Back to Home" onClick={() => window.open('/', '_blank', 'noopener')}>
            {narrow ? null : 'Back to Home'}
          </Button>
        </Layout.Header>
        <Layout.Content style={{ padding: 'clamp(12px, 3vw, 24px)' }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
