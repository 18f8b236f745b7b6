import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useAdminToken } from '../api/adminToken';
import { api, errorText } from '../api/client';
import { closeAdminSocket } from '../realtime/socket';
import { useDocumentTitle } from '../useDocumentTitle';

/** Asks for the admin token (DECISIONS.md, Admin access) and checks it before keeping it. */
export function SignIn() {
  const reason = useAdminToken((s) => s.signedOutReason);
  const signIn = useAdminToken((s) => s.signIn);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useDocumentTitle('Sign in');

  const submit = async ({ token }: { token: string }) => {
    const t = token.trim();
    setBusy(true);
    setFailure(null);
    try {
      await api.get('/api/admin/dashboards', { headers: { Authorization: `Bearer ${t}` } });
      closeAdminSocket();
      signIn(t);
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const shown = failure ?? reason;
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f5f7fb', padding: 16 }}>
      <Card style={{ width: 420, maxWidth: '100%' }} data-testid="admin-sign-in">
        <Typography.Title level={3} style={{ marginTop: 0 }}>Admin Console</Typography.Title>
        <Typography.Paragraph type="secondary">
          Sign in with the admin token. The server prints it at start (or takes it from ADMIN_TOKEN).
        </Typography.Paragraph>
        {shown && <Alert type="error" showIcon title={shown} style={{ marginBottom: 16 }} data-testid="sign-in-error" />}
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item label="Admin token" name="token" rules={[{ required: true, whitespace: true, message: 'Admin token is required' }]}>
            <Input.Password prefix={<LockOutlined />} autoFocus autoComplete="current-password" placeholder="Paste the admin token" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>Sign in</Button>
        </Form>
      </Card>
    </div>
  );
}
