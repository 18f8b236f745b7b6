import { ConfigProvider } from 'antd';
import { useAdminToken } from '../api/adminToken';
import { AdminShell } from './shell/AdminShell';
import { SignIn } from './SignIn';
import { SECONDARY_TEXT } from './ui/States';

/** /admin: the sign-in form without a stored token, the console with one (secondary text made readable). */
export default function AdminPage() {
  const token = useAdminToken((s) => s.token);
  return (
    <ConfigProvider theme={{ token: { colorTextDescription: SECONDARY_TEXT, colorTextSecondary: SECONDARY_TEXT } }}>
      {token ? <AdminShell /> : <SignIn />}
    </ConfigProvider>
  );
}
