import { Alert, Button, Modal, Popconfirm, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { ApiTokenDto, UserDto } from '@common/schemas/auth';
import { errorText } from '../../api/client';
import { sayInPlace, useSubmit } from '../../api/useSubmit';
import { usersApi } from './api';

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

/** Users → Tokens: an admin sees a person's personal API tokens (never the tokens themselves) and revokes any of them. */
export function UserTokens({ user, onClose }: { user: UserDto; onClose(): void }) {
  const [tokens, setTokens] = useState<ApiTokenDto[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback(() => {
    usersApi.tokens(user.id).then(setTokens, (e: unknown) => setFailure(errorText(e)));
  }, [user.id]);
  useEffect(load, [load]);
  const submit = useSubmit(sayInPlace(setFailure));
  const revoke = (t: ApiTokenDto) => submit.run(() => usersApi.revokeToken(user.id, t.id).then(load), { failure: 'Failed' });

  return (
    <Modal open title={`Personal API tokens of ${user.email}`} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      {failure && <Alert type="error" showIcon title={failure} />}
      <div data-testid="user-tokens">
      <Table<ApiTokenDto>
        rowKey="id"
        size="small"
        loading={!tokens && !failure}
        dataSource={tokens ?? []}
        pagination={false}
        locale={{ emptyText: 'No tokens' }}
        columns={[
          { title: 'Name', render: (_, t) => <>{t.name} <Typography.Text code>{t.hint}</Typography.Text></> },
          { title: 'Created', render: (_, t) => when(t.createdAt, '—') },
          { title: 'Last used', render: (_, t) => when(t.lastUsedAt, 'never') },
          { title: 'Expires', render: (_, t) => when(t.expiresAt, 'never') },
          {
            title: '',
            render: (_, t) => (
              <Popconfirm title={`Revoke "${t.name}"? Whatever uses it stops at once.`} onConfirm={() => revoke(t)}>
                <Button size="small" danger>Revoke</Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      </div>
    </Modal>
  );
}
