import { Alert, Button, Card, Form, Input, Skeleton, Typography } from 'antd';
import { LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { PASSWORD_MIN_LENGTH, type MeDto, type SetupStateDto } from '@common/schemas/auth';
import { useSession } from '../api/session';
import { publicApi, errorText } from '../api/client';
import { useSubmit } from '../api/useSubmit';
import { closeAdminSocket } from '../realtime/socket';
import { useDocumentTitle } from '../useDocumentTitle';

const passwordRules = [
  { required: true, message: 'Password is required' },
  { min: PASSWORD_MIN_LENGTH, message: `At least ${PASSWORD_MIN_LENGTH} characters` },
];

/** A centred card for the forms before the console. */
export function Gate({ title, intro, children }: { title: string; intro: React.ReactNode; children: React.ReactNode }) {
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f5f7fb', padding: 16 }}>
      <Card style={{ width: 420, maxWidth: '100%' }} data-testid="admin-sign-in">
        <Typography.Title level={1} style={{ marginTop: 0, fontSize: 24, lineHeight: 1.35 }}>{title}</Typography.Title>
        <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
        {children}
      </Card>
    </div>
  );
}

/**
 * The way into the console: with no account yet, the first admin is created by proving the admin
 * token (only whoever started the server has it); afterwards people sign in with email and password. The
 * session lives in an HttpOnly cookie: the page never holds a token.
 */
export function SignIn() {
  const reason = useSession((s) => s.signedOutReason);
  const signedIn = useSession((s) => s.signedIn);
  const [setup, setSetup] = useState<SetupStateDto | null>(null);
  const submit = useSubmit();
  const [failure, setFailure] = useState<string | null>(null);
  useDocumentTitle('Sign in');

  useEffect(() => {
    publicApi.get<SetupStateDto>('/api/auth/setup').then(setSetup, (e: unknown) => setFailure(errorText(e)));
  }, []);

  const send = (path: string) => (values: Record<string, string>) =>
    submit.run(async () => {
      const me = await publicApi.post<MeDto>(path, values);
      closeAdminSocket();
      signedIn(me);
    });

  const shown = failure ?? submit.error ?? reason;
  const error = shown && <Alert type="error" showIcon title={shown} style={{ marginBottom: 16 }} data-testid="sign-in-error" />;
  if (!setup) return <Gate title="Admin Console" intro="Checking…">{error ?? <Skeleton active />}</Gate>;
  if (setup.needed) {
    return (
      <Gate title="Create the first admin" intro="No one can sign in yet. Prove you run this server with its admin token (printed at start, or ADMIN_TOKEN), then choose your email and password.">
        {error}
        <div data-testid="setup-form">
          <Form layout="vertical" onFinish={send('/api/auth/setup')} requiredMark={false}>
            <Form.Item label="Admin token" name="token" rules={[{ required: true, whitespace: true, message: 'Admin token is required' }]}>
              <Input.Password prefix={<LockOutlined />} autoFocus autoComplete="off" placeholder="Paste the admin token" />
            </Form.Item>
            <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
              <Input prefix={<UserOutlined />} autoComplete="name" />
            </Form.Item>
            <Form.Item label="Email" name="email" rules={[{ required: true, type: 'email', message: 'An email address is required' }]}>
              <Input prefix={<MailOutlined />} autoComplete="username" />
            </Form.Item>
            <Form.Item label="Password" name="password" rules={passwordRules}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={submit.busy}>Create admin and sign in</Button>
          </Form>
        </div>
      </Gate>
    );
  }
  return (
    <Gate title="Admin Console" intro="Sign in with your email and password. No account? Ask an admin for an invitation.">
      {error}
      <div data-testid="login-form">
        <Form layout="vertical" onFinish={send('/api/auth/login')} requiredMark={false}>
          <Form.Item label="Email" name="email" rules={[{ required: true, whitespace: true, message: 'Email is required' }]}>
            <Input prefix={<MailOutlined />} autoFocus autoComplete="username" />
          </Form.Item>
          <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Password is required' }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submit.busy}>Sign in</Button>
        </Form>
      </div>
    </Gate>
  );
}

export { passwordRules };
