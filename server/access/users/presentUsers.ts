import type { ApiTokenDto, Role, SessionDto, UserDto } from '@common/schemas/auth';
import type { ApiTokenDoc, SessionDoc, UserDoc } from '../accounts/models';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A person as the console shows them: never the password hash. */
export function presentUser(u: UserDoc): UserDto {
  return {
    id: String(u._id),
    email: u.email,
    name: u.name ?? '',
    role: u.role as Role,
    dashboardIds: u.dashboardIds ?? null,
    disabled: Boolean(u.disabled),
    status: u.disabled ? 'disabled' : u.passwordHash ? 'active' : 'invited',
    lastSignInAt: iso(u.lastSignInAt),
    createdAt: iso(u.createdAt) ?? new Date(0).toISOString(),
  };
}

/** A personal API token: its hint, never the token or its hash. */
export function presentApiToken(t: ApiTokenDoc): ApiTokenDto {
  return { id: String(t._id), name: t.name, hint: t.hint, createdAt: iso(t.createdAt)!, expiresAt: iso(t.expiresAt), lastUsedAt: iso(t.lastUsedAt) };
}

/** A signed-in browser: when and from where, never the id or its hash. */
export function presentSession(s: SessionDoc, currentHash: string | null): SessionDto {
  return {
    id: String(s._id), current: s.idHash === currentHash, createdAt: iso(s.createdAt)!, lastSeenAt: iso(s.lastSeenAt)!,
    expiresAt: iso(s.expiresAt)!, userAgent: s.userAgent ?? '', address: s.address ?? null,
  };
}
