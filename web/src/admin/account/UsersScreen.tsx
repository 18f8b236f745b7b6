import { Alert, Button, Card, Flex, Form, Input, Popconfirm, Select, Skeleton, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { ROLES, type InviteLinkDto, type Role, type UserDto } from '@common/schemas/auth';
import { errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { sayInPlace, useSubmit } from '../../api/useSubmit';
import { useDashboards } from '../stores/dashboards';
import { LoadError } from '../ui/States';
import { usersApi } from './api';
import { UserTokens } from './UserTokens';

const roleOptions = ROLES.map((r) => ({ value: r, label: r[0].toUpperCase() + r.slice(1) }));
const STATUS_COLOR = { active: 'green', invited: 'blue', disabled: 'default' } as const;

/** Which dashboards a person may see: every one (empty choice) or the chosen ones. */
function DashboardLimit({ value, onChange }: { value: string[] | null; onChange(v: string[] | null): void }) {
  const dashboards = useDashboards((s) => s.items);
  return (
    <Select
      mode="multiple"
      allowClear
      style={{ minWidth: 200 }}
      placeholder="All dashboards"
      aria-label="Dashboards"
      value={value ?? []}
      onChange={(v: string[]) => onChange(v.length ? v : null)}
      options={dashboards.map((d) => ({ value: d.id, label: d.name }))}
    />
  );
}

/** A single-use link: emailed to the person (SMTP configured), or shown to copy and pass on. */
function LinkShown({ link, onClose }: { link: InviteLinkDto; onClose(): void }) {
  const until = new Date(link.expiresAt).toLocaleString();
  if (link.emailed) {
    return <Alert type="success" showIcon closable onClose={onClose} title={`Email sent to ${link.user.email}: their link works once, until ${until}`} data-testid="invite-emailed" />;
  }
  return (
    <Alert
      type="success"
      showIcon
      closable
      onClose={onClose}
      title={`Link for ${link.user.email}, valid until ${until}: copy it and send it to them`}
      description={<Typography.Text code copyable data-testid="invite-link">{link.url}</Typography.Text>}
    />
  );
}

/** Permissions → Users: invite, role, dashboard limits, disable, remove, reset link, personal API tokens, last sign-in (admins only). */
export default function UsersScreen() {
  const me = useSession((s) => s.me);
  const [users, setUsers] = useState<UserDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [link, setLink] = useState<InviteLinkDto | null>(null);
  const [limit, setLimit] = useState<string[] | null>(null);
  const [tokensOf, setTokensOf] = useState<UserDto | null>(null);
  const [form] = Form.useForm();

  const load = useCallback(() => {
    usersApi.list().then(setUsers, (e: unknown) => setError(errorText(e)));
  }, []);
  useEffect(load, [load]);

  // One action at a time; its failure is said in the alert above.
  const submit = useSubmit(sayInPlace(setFailure));
  const run = <T,>(fn: () => Promise<T>, done?: (v: T) => void) => {
    setFailure(null);
    return submit.run(async () => {
      done?.(await fn());
      load();
    }, { failure: 'Failed' });
  };

  if (error && !users) return <LoadError title="Failed to fetch users" detail={error} onRetry={load} />;
  if (!users) return <Skeleton active />;
  return (
    <Flex vertical gap={16} data-testid="users-screen">
      <Card title="Invite someone">
        <Form form={form} layout="inline" initialValues={{ role: 'editor' }} onFinish={(v: { email: string; role: Role }) => run(() => usersApi.invite({ ...v, dashboardIds: limit }), (l) => {
          setLink(l);
          form.resetFields();
          setLimit(null);
        })}>
          <Form.Item name="email" rules={[{ required: true, type: 'email', message: 'An email address is required' }]}><Input placeholder="Email" aria-label="Email" /></Form.Item>
          <Form.Item name="role"><Select options={roleOptions} style={{ width: 120 }} aria-label="Role" /></Form.Item>
          <Form.Item><DashboardLimit value={limit} onChange={setLimit} /></Form.Item>
          <Button type="primary" htmlType="submit">Invite</Button>
        </Form>
      </Card>
      {link && <LinkShown link={link} onClose={() => setLink(null)} />}
      {tokensOf && <UserTokens user={tokensOf} onClose={() => setTokensOf(null)} />}
      {failure && <Alert type="error" showIcon title={failure} closable onClose={() => setFailure(null)} data-testid="users-error" />}
      <Table<UserDto>
        rowKey="id"
        dataSource={users}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          { title: 'Person', render: (_, u) => <Flex vertical><span>{u.name || '—'}</span><Typography.Text type="secondary">{u.email}</Typography.Text></Flex> },
          { title: 'Role', render: (_, u) => <Select size="small" value={u.role} options={roleOptions} style={{ width: 110 }} aria-label={`Role of ${u.email}`} onChange={(role: Role) => run(() => usersApi.update(u.id, { role }))} /> },
          { title: 'Dashboards', render: (_, u) => <DashboardLimit value={u.dashboardIds} onChange={(dashboardIds) => run(() => usersApi.update(u.id, { dashboardIds }))} /> },
          { title: 'Status', render: (_, u) => <Tag color={STATUS_COLOR[u.status]}>{u.status}</Tag> },
          { title: 'Last sign-in', render: (_, u) => (u.lastSignInAt ? new Date(u.lastSignInAt).toLocaleString() : 'never') },
          {
            title: '',
            render: (_, u) => (
              <Flex gap={4} wrap>
                <Button size="small" onClick={() => run(() => usersApi.update(u.id, { disabled: !u.disabled }))}>{u.disabled ? 'Enable' : 'Disable'}</Button>
                <Button size="small" onClick={() => run(() => usersApi.resetLink(u.id), setLink)}>{u.status === 'invited' ? 'New invitation link' : 'Reset link'}</Button>
                <Button size="small" onClick={() => setTokensOf(u)}>Tokens</Button>
                <Popconfirm title={`Remove ${u.email}? Their sessions and tokens end at once.`} onConfirm={() => run(() => usersApi.remove(u.id))}>
                  <Button size="small" danger disabled={u.id === me?.user?.id}>Remove</Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
    </Flex>
  );
}
