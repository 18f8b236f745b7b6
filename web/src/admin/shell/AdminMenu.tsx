import { Menu, type MenuProps } from 'antd';
import { ApiOutlined, AppstoreOutlined, DatabaseOutlined, GlobalOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useCan } from '../../api/session';
import { groupOf, NAV, visibleTo } from './nav';
import type { Place } from './usePlace';

const ICONS = {
  'data-sources': <DatabaseOutlined />,
  'dashboard-builder': <AppstoreOutlined />,
  'published-dashboards': <GlobalOutlined />,
  'api-docs': <ApiOutlined />,
};

/** Sidebar items; a group title chooses its main tab (first sub-tab) and opens or closes the group. */
function menuItems(onGroup: (mainTab: string) => void, isAdmin: boolean): MenuProps['items'] {
  return NAV.map((g) => ({
    key: g.mainTab,
    icon: ICONS[g.mainTab],
    label: <span data-testid={`nav-${g.mainTab}`}>{g.label}</span>,
    onTitleClick: () => onGroup(g.mainTab),
    children: g.items.filter(visibleTo(isAdmin)).map((i) => ({ key: `${g.mainTab}/${i.key}`, label: <span data-testid={`nav-${g.mainTab}-${i.key}`}>{i.label}</span> })),
  }));
}

interface Props {
  place: Place;
  collapsed: boolean;
  go(mainTab: string, subTab?: string): void;
  /** Called after an item was chosen (the phone drawer closes). */
  onChosen?(): void;
}

/** The console's navigation menu, in the sidebar on desktop and in the drawer on phones. */
export function AdminMenu({ place, collapsed, go, onChosen }: Props) {
  const [openGroups, setOpenGroups] = useState<string[]>(NAV.map((g) => g.mainTab));
  const isAdmin = useCan('admin');
  return (
    <Menu
      mode="inline"
      inlineCollapsed={collapsed}
      style={{ borderInlineEnd: 'none' }}
      selectedKeys={[`${place.mainTab}/${place.subTab}`]}
      openKeys={collapsed ? undefined : openGroups}
      items={menuItems((mainTab) => {
        // Choosing a main tab selects its first sub-tab; only once there does the title fold the group.
        if (mainTab !== place.mainTab || place.subTab !== groupOf(mainTab)?.subTabs[0].key) {
          go(mainTab);
          setOpenGroups((open) => (open.includes(mainTab) ? open : [...open, mainTab]));
          onChosen?.();
        } else {
          setOpenGroups((open) => (open.includes(mainTab) ? open.filter((k) => k !== mainTab) : [...open, mainTab]));
        }
      }, isAdmin)}
      onClick={({ key }) => {
        const [main, sub] = String(key).split('/');
        go(main, sub);
        onChosen?.();
      }}
    />
  );
}
