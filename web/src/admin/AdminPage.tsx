import { ConfigProvider } from 'antd';
import { useAdminToken } from '../api/adminToken';
import { AdminShell } from './shell/AdminShell';
import { SignIn } from './SignIn';
import { SECONDARY_TEXT } from './ui/States';

/** Tooltips open after 700 ms (spec 9). */
const TOOLTIP_OPEN_DELAY_S = 0.7;

/** /admin: the sign-in form without a stored token, the console with one (readable secondary text, spec tooltip delay). */
export default function AdminPage() {
  const token = useAdminToken((s) => s.token);
  return (
    <ConfigProvider
      theme={{ token: { colorTextDescription: SECONDARY_TEXT, colorTextSecondary: SECONDARY_TEXT } }}
      tooltip={{ mouseEnterDelay: TOOLTIP_OPEN_DELAY_S }}
    >
      {token ? <AdminShell /> : <SignIn />}
    </ConfigProvider>
  );
}
