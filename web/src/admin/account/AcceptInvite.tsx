import { Alert, Button, Form, Input, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { InvitationDto, MeDto } from '@common/schemas/auth';
import { errorText, publicApi } from '../../api/client';
import { useSession } from '../../api/session';
import { useSubmit } from '../../api/useSubmit';
import { Gate, passwordRules } from '../SignIn';

/** /invite/<token>: an invitation or reset link: choose name and password, then on to the console. */
export default function AcceptInvite() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const signedIn = useSession((s) => s.signedIn);
  const [invitation, setInvitation] = useState<InvitationDto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = useSubmit();

  useEffect(() => {
    publicApi.get<InvitationDto>(`/api/auth/invite/${encodeURIComponent(token)}`).then(setInvitation, (e: unknown) => setFailure(errorText(e)));
  }, [token]);

  const accept = (v: { name: string; password: string }) =>
    submit.run(async () => {
      signedIn(await publicApi.post<MeDto>('/api/auth/accept-invite', { token, ...v }));
      navigate('/admin');
    });

  const shown = failure ?? submit.error;
  const error = shown && <Alert type="error" showIcon title={shown} style={{ marginBottom: 16 }} data-testid="sign-in-error" />;
  if (!invitation) return <Gate title="Invitation" intro="Checking the link…">{error ?? <Skeleton active />}</Gate>;
  const reset = invitation.kind === 'reset';
  return (
    <Gate title={reset ? 'Choose a new password' : 'Join LiveDash'} intro={`${invitation.email}: ${reset ? 'set a new password; your other sessions end.' : 'choose your name and a password.'}`}>
      {error}
      <div data-testid="accept-form">
        <Form layout="vertical" requiredMark={false} initialValues={{ name: invitation.name }} onFinish={accept}>
          <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}><Input autoComplete="name" autoFocus /></Form.Item>
          <Form.Item label="Password" name="password" rules={passwordRules}><Input.Password autoComplete="new-password" /></Form.Item>
          <Button type="primary" htmlType="submit" block loading={submit.busy}>{reset ? 'Set password and sign in' : 'Join and sign in'}</Button>
        </Form>
      </div>
    </Gate>
  );
}
