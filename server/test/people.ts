import { expect } from 'vitest';
import type { Role } from '@common/schemas/auth';
import type { TestServer } from './harness';

/** A strong test password (not in the common list). */
export const PASSWORD = 'correct horse battery staple';

export interface Person {
  id: string;
  email: string;
  password: string;
  /** The `Cookie` header of the person's session. */
  cookie: string;
  /** Calls the server as this person (session cookie, no bearer). */
  http: TestServer['http'];
}

let n = 0;

/** The session cookie a sign-in answer set (`name=value`). */
export function cookieOf(headers: Headers): string {
  const set = headers.getSetCookie().find((c) => c.startsWith('livedash_session='));
  expect(set, 'a session cookie').toBeTruthy();
  return set!.split(';')[0];
}

/** Calls as the holder of a cookie. */
export const asCookie = (s: TestServer, cookie: string): TestServer['http'] => (method, path, opts = {}) =>
  s.http(method, path, { ...opts, token: null, headers: { cookie, ...(opts.headers ?? {}) } });

/** Invites a person with the admin token and accepts the invitation: they are signed in. */
export async function addPerson(s: TestServer, role: Role, opts: { dashboardIds?: string[] | null; email?: string } = {}): Promise<Person> {
  const email = opts.email ?? `person${++n}.${Date.now()}@example.com`;
  const invited = await s.http('POST', '/api/admin/users', { body: { email, role, dashboardIds: opts.dashboardIds ?? null } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const token = String(invited.body.url).split('/invite/')[1];
  const accepted = await s.http('POST', '/api/auth/accept-invite', { token: null, body: { token, name: `${role} ${n}`, password: PASSWORD } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const cookie = cookieOf(accepted.headers);
  return { id: invited.body.user.id, email, password: PASSWORD, cookie, http: asCookie(s, cookie) };
}

/** Signs a person in again: a new session. */
export async function signInAgain(s: TestServer, p: { email: string; password: string }): Promise<string> {
  const res = await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: p.password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return cookieOf(res.headers);
}
