import { Button, Flex, Layout, Menu, Tabs, Tooltip, Typography } from 'antd';
import type { MenuProps } from 'antd';
import {
  ApiOutlined, DatabaseOutlined, GlobalOutlined, HomeOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, AppstoreOutlined,
} from '@ant-design/icons';
import { useCallback, useState } from 'react';
import { useAdminToken } from '../../api/adminToken';
import { closeAdminSocket } from '../../realtime/socket';
import { useOAuthReturn } from '../integrations/useOAuthReturn';
import { useAdminRealtime } from '../stores/useAdminRealtime';
import { AdminContent } from './AdminContent';
import { ConnectionBadge } from './ConnectionBadge';
import { groupOf, NAV } from './nav';
import { usePlace } from './usePlace';

const ICONS = {
  'data-sources': <DatabaseOutlined />,
  'dashboard-builder': <AppstoreOutlined />,
  'published-dashboards': <GlobalOutlined />,
  'api-docs': <ApiOutlined />,
};

/** Sidebar items; a group title chooses its main tab (first sub-tab) and opens or closes the group. */
function menuItems(onGroup: (mainTab: string) => void): MenuProps['items'] {
  return NAV.map((g) => ({
    key: g.mainTab,
    icon: ICONS[g.mainTab],
    label: <span data-testid={`nav-${g.mainTab}`}>{g.label}</span>,
    onTitleClick: () => onGroup(g.mainTab),
    children: g.items.map((i) => ({ key: `${g.mainTab}/${i.key}`, label: <span data-testid={`nav-${g.mainTab}-${i.key}`}>{i.label}</span> })),
  }));
}

/** The console frame (spec 2.4): sidebar, top bar, sub-tab row and the current screen. */
export function AdminShell() {
  const [collapsed, setCollapsed] = useState(false);
  const [openGroups, setOpenGroups] = useState<string[]>(NAV.map((g) => g.mainTab));
  const { place, go } = usePlace();
  const signOut = useAdminToken((s) => s.signOut);
  useAdminRealtime();
  const navigate = useCallback((mainTab: string, subTab: string) => go(mainTab, subTab), [go]);
  useOAuthReturn(navigate);

  const group = groupOf(place.mainTab)!;
  const onSubTab = group.subTabs.some((t) => t.key === place.subTab);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        trigger={null}
        width={256}
        collapsedWidth={64}
        theme="light"
        style={{ borderRight: '1px solid #f0f0f0', position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
        data-testid="admin-sidebar"
      >
        <div style={{ height: 56, display: 'flex', alignItems: 'center', justifyContent: 'center', fontWeight: 700, fontSize: 16 }}>
          {collapsed ? 'LD' : 'LiveDash Admin'}
        </div>
        <Menu
          mode="inline"
          inlineCollapsed={collapsed}
          style={{ borderInlineEnd: 'none' }}
          selectedKeys={[`${place.mainTab}/${place.subTab}`]}
          openKeys={collapsed ? undefined : openGroups}
          items={menuItems((mainTab) => {
            // Choosing a main tab selects its first sub-tab (spec 2.4); only once there does the title fold the group.
            if (mainTab !== place.mainTab || place.subTab !== groupOf(mainTab)?.subTabs[0].key) {
              go(mainTab);
              setOpenGroups((open) => (open.includes(mainTab) ? open : [...open, mainTab]));
            } else {
              setOpenGroups((open) => (open.includes(mainTab) ? open.filter((k) => k !== mainTab) : [...open, mainTab]));
            }
          })}
          onClick={({ key }) => {
            const [main, sub] = String(key).split('/');
            go(main, sub);
          }}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ background: '#fff', padding: '0 16px', borderBottom: '1px solid #f0f0f0', height: 56, lineHeight: '56px' }}>
          <Flex align="center" justify="space-between" style={{ height: '100%' }}>
            <Flex align="center" gap={12}>
              <Tooltip title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}>
                <Button
                  type="text"
                  aria-label="Toggle sidebar"
                  icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                  onClick={() => setCollapsed((c) => !c)}
                />
              </Tooltip>
              <Typography.Title level={4} style={{ margin: 0 }}>{group.label}</Typography.Title>
            </Flex>
            <Flex align="center" gap={12}>
              <ConnectionBadge />
              <Button icon={<HomeOutlined />} onClick={() => window.open('/', '_blank', 'noopener')}>Back to Home</Button>
              <Button
                icon={<LogoutOutlined />}
                onClick={() => {
                  closeAdminSocket();
                  signOut();
                }}
              >
                Sign out
              </Button>
            </Flex>
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ padding: '8px 24px 24px' }}>
          <Tabs
            activeKey={onSubTab ? place.subTab : ''}
            styles={onSubTab ? undefined : { indicator: { display: 'none' } }}
            onChange={(key) => go(place.mainTab, key)}
            items={group.subTabs.map((t) => ({ key: t.key, label: t.label }))}
            data-testid="admin-subtabs"
          />
          <AdminContent place={place} go={go} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
