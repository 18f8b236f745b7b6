import { Button, Drawer, Flex, Layout, Tabs, Tooltip, Typography } from 'antd';
import { HomeOutlined, LogoutOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useCallback, useState } from 'react';
import { EngineBanner } from '../engine/EngineBanner';
import { useCan } from '../../api/session';
import { AccountButton } from '../account/AccountDrawer';
import { signOutNow } from '../account/api';
import { useOAuthReturn } from '../integrations/oauth/useOAuthReturn';
import { useAdminRealtime } from '../stores/useAdminRealtime';
import { AdminContent } from './AdminContent';
import { AdminMenu } from './AdminMenu';
import { ConnectionBadge } from './ConnectionBadge';
import { groupOf, placeTitle, visibleTo } from './nav';
import { usePlace } from './usePlace';
import { useCollapsedSidebar, useIsPhone } from './useSidebarState';
import { useDocumentTitle } from '../../useDocumentTitle';

const SIDEBAR_WIDTH = 256;
const SIDEBAR_COLLAPSED_WIDTH = 64;
const DRAWER_WIDTH = 280;

/**
 * The console frame: sidebar, top bar, sub-tab row and the current screen. Below 768 px
 * the sidebar is a drawer opened from the top bar and the top bar's buttons shrink to icons.
 */
export function AdminShell() {
  const phone = useIsPhone();
  const [collapsed, setCollapsed] = useCollapsedSidebar();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { place, go } = usePlace();
  const isAdmin = useCan('admin');
  useAdminRealtime();
  const navigate = useCallback((mainTab: string, subTab: string) => go(mainTab, subTab), [go]);
  useOAuthReturn(navigate);
  useDocumentTitle(placeTitle(place.mainTab, place.subTab));

  const group = groupOf(place.mainTab)!;
  const onSubTab = group.subTabs.some((t) => t.key === place.subTab);
  const toggle = () => (phone ? setDrawerOpen(true) : setCollapsed(!collapsed));
  const toggleTip = phone ? 'Open menu' : collapsed ? 'Expand sidebar' : 'Collapse sidebar';
  const brand = (short: boolean) => (
    <div style={{ height: 56, display: 'flex', alignItems: 'center', justifyContent: 'center', fontWeight: 700, fontSize: 16 }}>
      {short ? 'LD' : 'LiveDash Admin'}
    </div>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!phone && (
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          trigger={null}
          width={SIDEBAR_WIDTH}
          collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
          theme="light"
          style={{ borderRight: '1px solid #f0f0f0', position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
          data-testid="admin-sidebar"
        >
          {brand(collapsed)}
          <AdminMenu place={place} collapsed={collapsed} go={go} />
        </Layout.Sider>
      )}
      {phone && (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={DRAWER_WIDTH}
          closable={false}
          styles={{ body: { padding: 0 } }}
          data-testid="admin-drawer"
        >
          {brand(false)}
          <AdminMenu place={place} collapsed={false} go={go} onChosen={() => setDrawerOpen(false)} />
        </Drawer>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          data-testid="admin-header"
          style={{ background: '#fff', padding: phone ? '0 8px' : '0 16px', borderBottom: '1px solid #f0f0f0', height: 56, lineHeight: '56px' }}
        >
          <Flex align="center" justify="space-between" gap={8} style={{ height: '100%' }}>
            <Flex align="center" gap={phone ? 4 : 12} style={{ minWidth: 0 }}>
              <Tooltip title={toggleTip}>
                <Button
                  type="text"
                  aria-label={phone ? 'Open menu' : 'Toggle sidebar'}
                  icon={phone ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                  onClick={toggle}
                />
              </Tooltip>
              {/* The page's one level-1 heading, at the size of a level 4. */}
              <Typography.Title level={1} style={{ margin: 0, fontSize: phone ? 18 : 20, lineHeight: 1.4 }} ellipsis>{group.label}</Typography.Title>
            </Flex>
            <Flex align="center" gap={phone ? 4 : 12} style={{ flex: 'none' }}>
              <ConnectionBadge compact={phone} />
              <Tooltip title={phone ? 'Back to Home' : undefined}>
                <Button icon={<HomeOutlined />} aria-label="Back to Home" onClick={() => window.open('/', '_blank', 'noopener')}>
                  {phone ? null : 'Back to Home'}
                </Button>
              </Tooltip>
              <AccountButton compact={phone} />
              <Tooltip title={phone ? 'Sign out' : undefined}>
                <Button
                  icon={<LogoutOutlined />}
                  aria-label="Sign out"
                  onClick={() => void signOutNow()}
                >
                  {phone ? null : 'Sign out'}
                </Button>
              </Tooltip>
            </Flex>
          </Flex>
        </Layout.Header>
        {isAdmin && <EngineBanner />}
        <Layout.Content style={{ padding: phone ? '4px 12px 16px' : '8px 24px 24px', minWidth: 0 }}>
          <Tabs
            activeKey={onSubTab ? place.subTab : ''}
            styles={onSubTab ? undefined : { indicator: { display: 'none' } }}
            onChange={(key) => go(place.mainTab, key)}
            items={group.subTabs.filter(visibleTo(isAdmin)).map((t) => ({ key: t.key, label: t.label }))}
            data-testid="admin-subtabs"
          />
          <AdminContent place={place} go={go} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
