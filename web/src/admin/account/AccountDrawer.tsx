import { Alert, App, Button, Divider, Drawer, Flex, Form, Input, InputNumber, List, Popconfirm, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useState } from 'react';
import type { ApiTokenDto, CreatedApiTokenDto, SessionDto } from '@common/schemas/auth';
import { errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { sayInPlace, useSubmit } from '../../api/useSubmit';
import { closeAdminSocket } from '../../realtime/socket';
import { passwordRules } from '../SignIn';
import { accountApi } from './api';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** "My account": name, password, personal API tokens, active sessions with "sign out everywhere". */
function Account() {
  const { message } = App.useApp();
  const me = useSession((s) => s.me);
  const signedIn = useSession((s) => s.signedIn);
  const [tokens, setTokens] = useState<ApiTokenDto[]>([]);
  const [sessions, setSessions] = useState<SessionDto[]>([]);
  const [created, setCreated] = useState<CreatedApiTokenDto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [passwordChanged, setPasswordChanged] = useState(false);
  const [pwForm] = Form.useForm();

  const load = useCallback(() => {
    accountApi.tokens().then(setTokens, (e: unknown) => setFailure(errorText(e)));
    accountApi.sessions().then(setSessions, (e: unknown) => setFailure(errorText(e)));
  }, []);
  useEffect(load, [load]);

  // One action at a time; its failure is said in the alert above.
  const submit = useSubmit(sayInPlace(setFailure));
  const run = <T,>(fn: () => Promise<T>, done?: (v: T) => void) => {
    setFailure(null);
    return submit.run(async () => {
      done?.(await fn());
    }, { failure: 'Failed' });
  };

  if (!me?.user) return <Typography.Paragraph>The admin token has no account: sign in as a person to manage one.</Typography.Paragraph>;
  return (
    <Flex vertical gap={8} data-testid="my-account">
      {failure && <Alert type="error" showIcon title={failure} />}
      <Typography.Text type="secondary">{me.user.email} · {me.role}</Typography.Text>
      <Form layout="inline" initialValues={{ name: me.user.name }} onFinish={(v: { name: string }) => run(() => accountApi.update({ name: v.name }), (m) => { signedIn(m); void message.success('Name saved'); })}>
        <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}><Input /></Form.Item>
        <Button htmlType="submit">Save</Button>
      </Form>

      <Divider titlePlacement="start">Password</Divider>
      <Form form={pwForm} layout="vertical" onFinish={(v: { currentPassword: string; newPassword: string }) => run(() => accountApi.update(v), (m) => {
        pwForm.resetFields();
        closeAdminSocket();
        signedIn(m);
        setPasswordChanged(true);
        load();
        void message.success('Password changed: your other sessions were signed out');
      })}>
        <Form.Item label="Current password" name="currentPassword" rules={[{ required: true, message: 'Current password is required' }]}><Input.Password autoComplete="current-password" /></Form.Item>
        <Form.Item label="New password" name="newPassword" rules={passwordRules}><Input.Password autoComplete="new-password" /></Form.Item>
        <Button htmlType="submit">Change password</Button>
      </Form>

      <Divider titlePlacement="start">Personal API tokens</Divider>
      <Typography.Text type="secondary">A token acts with your role as <Typography.Text code>Authorization: Bearer &lt;token&gt;</Typography.Text>. It is shown once.</Typography.Text>
      <Form layout="inline" onFinish={(v: { name: string; days?: number | null }) => run(() => accountApi.createToken({ name: v.name, expiresInDays: v.days ?? null }), (t) => { setCreated(t); load(); })}>
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: 'Name the token' }]}><Input placeholder="Token name" aria-label="Token name" /></Form.Item>
        <Form.Item name="days"><InputNumber min={1} max={3650} placeholder="Days (optional)" aria-label="Expires in days" /></Form.Item>
        <Button htmlType="submit">Create token</Button>
      </Form>
      {created && (
        <Alert type="success" showIcon title={`Token "${created.name}" created: copy it now, it is not shown again`}
          description={<Typography.Text code copyable data-testid="created-token">{created.token}</Typography.Text>} closable onClose={() => setCreated(null)} />
      )}
      {passwordChanged && tokens.length > 0 && (
        <Alert type="warning" showIcon data-testid="tokens-after-password" title={`Your ${tokens.length} personal API token(s) still work: a new password does not end them. Revoke them all if someone else may hold one.`} />
      )}
      {tokens.length > 0 && (
        <Popconfirm title={`Revoke all ${tokens.length} of your tokens? Whatever uses them stops at once.`} onConfirm={() => run(() => accountApi.revokeAllTokens(), (r) => {
          void message.success(`${r.revoked} token(s) revoked`);
          setPasswordChanged(false);
          load();
        })}>
          <Button danger size="small" style={{ alignSelf: 'flex-start' }}>Revoke all tokens</Button>
        </Popconfirm>
      )}
      <List size="small" dataSource={tokens} locale={{ emptyText: 'No tokens' }} renderItem={(t) => (
        <List.Item actions={[<Popconfirm key="r" title="Revoke this token?" onConfirm={() => run(() => accountApi.revokeToken(t.id), load)}><Button size="small" danger>Revoke</Button></Popconfirm>]}>
          <Flex vertical>
            <span>{t.name} <Typography.Text code>{t.hint}</Typography.Text></span>
            <Typography.Text type="secondary">Last used {when(t.lastUsedAt)} · expires {t.expiresAt ? when(t.expiresAt) : 'never'}</Typography.Text>
          </Flex>
        </List.Item>
      )} />

      <Divider titlePlacement="start">Sessions</Divider>
      <List size="small" dataSource={sessions} renderItem={(s) => (
        <List.Item>
          <Flex vertical>
            <span>{s.userAgent.slice(0, 80) || 'Unknown browser'}{s.current ? ' (this one)' : ''}</span>
            <Typography.Text type="secondary">{s.address ?? ''} · last active {when(s.lastSeenAt)}</Typography.Text>
          </Flex>
        </List.Item>
      )} />
      <Popconfirm title="Sign out every session, this one too? Personal API tokens keep working: revoke them above." onConfirm={() => run(() => accountApi.signOutEverywhere(), () => {
        closeAdminSocket();
        useSession.getState().signOut('You signed out everywhere.');
      })}>
        <Button danger>Sign out everywhere</Button>
      </Popconfirm>
    </Flex>
  );
}

/** The top bar's "My account" button and its drawer. */
export function AccountButton({ compact }: { compact?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<UserOutlined />} aria-label="My account" onClick={() => setOpen(true)}>{compact ? null : 'My account'}</Button>
      <Drawer title="My account" open={open} onClose={() => setOpen(false)} size={480} destroyOnHidden>
        <Account />
      </Drawer>
    </>
  );
}
