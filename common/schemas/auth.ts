import { z } from 'zod';

/** What a person may do: admin everything; editor dashboards and their sharing; viewer reads dashboards. */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Whether a role includes another (admin ⊃ editor ⊃ viewer). */
export const roleIncludes = (held: Role, needed: Role) => ROLES.indexOf(held) <= ROLES.indexOf(needed);

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** A person of the team, as the console shows it (never a password hash). */
export interface UserDto {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The dashboards this person is limited to, or null for every dashboard. */
  dashboardIds: string[] | null;
  disabled: boolean;
  /** invited: has not accepted the invitation yet. */
  status: 'invited' | 'active' | 'disabled';
  lastSignInAt: string | null;
  createdAt: string;
}

/** GET /api/auth/me: who the request is. `user` is null for the admin token. */
export interface MeDto {
  user: UserDto | null;
  role: Role;
  via: 'session' | 'apiToken' | 'adminToken';
}

/** GET /api/auth/setup: whether the first admin still has to be created. */
export interface SetupStateDto {
  needed: boolean;
  /** False when ADMIN_TOKEN_DISABLED is set: setup cannot be proven then. */
  adminTokenEnabled: boolean;
}

/** An invitation or reset link, shown once to the admin who made it. */
export interface InviteLinkDto {
  user: UserDto;
  url: string;
  expiresAt: string;
  /** Whether the link went out by email (only with SMTP configured). */
  emailed: boolean;
}

/** GET /api/auth/invite/:token: what the acceptance page shows. */
export interface InvitationDto {
  email: string;
  name: string;
  kind: 'invite' | 'reset';
  expiresAt: string;
}

export interface ApiTokenDto {
  id: string;
  name: string;
  /** The first and last characters, never the token. */
  hint: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** POST /api/auth/tokens: the token itself, shown this once. */
export interface CreatedApiTokenDto extends ApiTokenDto {
  token: string;
}

export interface SessionDto {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string;
  address: string | null;
}

const email = z.email({ error: 'email must be an email address' }).max(254, 'email is too long').transform((e) => e.toLowerCase());
const name = z.string().trim().min(1, 'name must not be empty').max(100, 'name is at most 100 characters');
/** Length only here; the common-password check runs on the server. */
export const Password = z
  .string({ error: 'password must be a string' })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);
const role = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });
const dashboardIds = z
  .array(z.string().regex(/^[0-9a-f]{24}$/, 'each dashboard id must be 24 hex characters'))
  .max(1000)
  .nullable();

export const Login = z.object({
  email: z.string().trim().min(1, 'email must not be empty').max(254).transform((e) => e.toLowerCase()),
  password: z.string().min(1, 'password must not be empty').max(PASSWORD_MAX_LENGTH),
}).strict();

export const Setup = z.object({ token: z.string().min(1, 'token must be the admin token').max(1000), email, name, password: Password }).strict();

export const AcceptInvite = z.object({ token: z.string().min(1).max(200), name, password: Password }).strict();

export const InviteUser = z.object({ email, role, name: name.optional(), dashboardIds: dashboardIds.optional() }).strict();
export type InviteUser = z.infer<typeof InviteUser>;

export const UpdateUser = z.object({ role: role.optional(), dashboardIds: dashboardIds.optional(), disabled: z.boolean().optional(), name: name.optional() }).strict();
export type UpdateUser = z.infer<typeof UpdateUser>;

export const UpdateMe = z
  .object({ name: name.optional(), currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(), newPassword: Password.optional() })
  .strict()
  .refine((v) => !v.newPassword || v.currentPassword, { message: 'currentPassword is needed to change the password', path: ['currentPassword'] });
export type UpdateMe = z.infer<typeof UpdateMe>;

export const CreateApiToken = z
  .object({ name, expiresInDays: z.number().int('expiresInDays must be a whole number').min(1).max(3650).nullable().optional() })
  .strict();
export type CreateApiToken = z.infer<typeof CreateApiToken>;
