import { isAdminPath } from '@common/adminPaths';
import { useAdminToken } from './adminToken';

/** A failed call: its message is "<status>: <response text>" (spec section 7). */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's human message alone, for toasts. */
    readonly detail: string,
  ) {
    super(message);
  }
}


/**
 * The one way the web app talks to the server: cookies sent, JSON content type only with a body,
 * the admin bearer token on admin and integrations paths, "<status>: <text>" errors, no retries.
 */
export async function apiRequest<T>(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const token = useAdminToken.getState().token;
  if (isAdminPath(path) && token) headers.set('Authorization', `Bearer ${token}`);
  const res = await fetch(path, { ...init, method, headers, credentials: 'include', body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    const text = await res.text();
    let detail = text || res.statusText;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: string } };
      if (parsed.error?.message) detail = parsed.error.message;
    } catch {
      // not JSON: keep the text
    }
    if (res.status === 401 && isAdminPath(path)) useAdminToken.getState().signOut(detail);
    throw new ApiCallError(res.status, `${res.status}: ${detail}`, detail);
  }
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

export const api = {
  get: <T>(path: string, init?: RequestInit) => apiRequest<T>('GET', path, undefined, init),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};

/** A human message from any thrown value. */
export const errorText = (e: unknown) => (e instanceof ApiCallError ? e.detail : e instanceof Error ? e.message : String(e));
