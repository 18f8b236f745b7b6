import type {
  ApiTokenDto, CreatedApiTokenDto, InviteLinkDto, MeDto, Role, SessionDto, UserDto,
} from '@common/schemas/auth';
import { api } from '../../api/client';
import { useSession } from '../../api/session';
import { closeAdminSocket } from '../../realtime/socket';

/** One's own account: name, password, personal API tokens and sessions. */
export const accountApi = {
  update: (body: { name?: string; currentPassword?: string; newPassword?: string }) => api.patch<MeDto>('/api/auth/me', body),
  sessions: () => api.get<SessionDto[]>('/api/auth/sessions'),
  signOutEverywhere: () => api.delete('/api/auth/sessions'),
  tokens: () => api.get<ApiTokenDto[]>('/api/auth/tokens'),
  createToken: (body: { name: string; expiresInDays: number | null }) => api.post<CreatedApiTokenDto>('/api/auth/tokens', body),
  revokeToken: (id: string) => api.delete(`/api/auth/tokens/${encodeURIComponent(id)}`),
  revokeAllTokens: () => api.delete<{ revoked: number }>('/api/auth/tokens'),
};

/** The team, for admins. */
export const usersApi = {
  list: () => api.get<UserDto[]>('/api/admin/users'),
  invite: (body: { email: string; role: Role; dashboardIds: string[] | null }) => api.post<InviteLinkDto>('/api/admin/users', body),
  update: (id: string, body: { role?: Role; dashboardIds?: string[] | null; disabled?: boolean }) => api.patch<UserDto>(`/api/admin/users/${encodeURIComponent(id)}`, body),
  remove: (id: string) => api.delete(`/api/admin/users/${encodeURIComponent(id)}`),
  resetLink: (id: string) => api.post<InviteLinkDto>(`/api/admin/users/${encodeURIComponent(id)}/reset-link`),
  tokens: (id: string) => api.get<ApiTokenDto[]>(`/api/admin/users/${encodeURIComponent(id)}/tokens`),
  revokeToken: (id: string, tokenId: string) => api.delete(`/api/admin/users/${encodeURIComponent(id)}/tokens/${encodeURIComponent(tokenId)}`),
};

/** Ends this browser's session and returns to the sign-in form. */
export async function signOutNow(): Promise<void> {
  await api.post('/api/auth/logout').catch(() => undefined);
  closeAdminSocket();
  useSession.getState().signOut();
}
