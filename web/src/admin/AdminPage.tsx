import { ConfigProvider, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useSession } from '../api/session';
import { AdminShell } from './shell/AdminShell';
import { SignIn } from './SignIn';
import { ViewerHome } from './account/ViewerHome';
import { READABLE_THEME } from './ui/readableTheme';

/** Tooltips open after 700 ms, so a pointer passing by shows none. */
const TOOLTIP_OPEN_DELAY_S = 0.7;

/**
 * /admin: asks the server who the session cookie is; the sign-in (or first-admin) form when no one,
 * the dashboards list for a viewer, the console for editors and admins.
 */
export default function AdminPage() {
  const { me, checked, refresh } = useSession();
  useEffect(() => {
    if (!checked) void refresh();
  }, [checked, refresh]);
  return (
    <ConfigProvider
      theme={READABLE_THEME}
      tooltip={{ mouseEnterDelay: TOOLTIP_OPEN_DELAY_S }}
    >
      {!checked ? <Skeleton active style={{ padding: 24 }} /> : !me ? <SignIn /> : me.role === 'viewer' ? <ViewerHome /> : <AdminShell />}
    </ConfigProvider>
  );
}
