import { useAdminToken } from '../api/adminToken';
import { AdminShell } from './shell/AdminShell';
import { SignIn } from './SignIn';

/** /admin: the sign-in form without a stored token, the console with one. */
export default function AdminPage() {
  const token = useAdminToken((s) => s.token);
  return token ? <AdminShell /> : <SignIn />;
}
