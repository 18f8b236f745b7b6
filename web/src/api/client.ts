import { SIGN_IN_AGAIN_CODES } from '@common/schemas/errors';

/** A failed call: its message is "<status>: <response text>", which callers show as it is. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's human message alone, for toasts. */
    readonly detail: string,
    /** The server's stable error code (common/schemas/errors.ts), matched instead of the text. */
    readonly code: string | null,
    /** The error's whole JSON (`error.current` of a version conflict, `error.fields`…), when it was JSON. */
    readonly error: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

type Audience = 'admin' | 'public';

/**
 * What a console call does when the server says the session has ended: the session store
 * (session.ts) registers it. A hook rather than an import, so the public pages' calls do not
 * bring the session store and its schemas (zod) along.
 */
let onSessionEnded: (reason: string) => void = () => {};
export function whenSessionEnds(handler: (reason: string) => void): void {
  onSessionEnded = handler;
}

/**
 * The one way the web app talks to the server: cookies sent (the console's session is its HttpOnly
 * cookie: no token in the page), JSON content type only with a body, "<status>: <text>" errors, no
 * retries. Console calls return to sign-in when the server says the session has ended.
 */
async function request<T>(audience: Audience, method: string, path: string, body?: unknown, init: RequestInit = {}, read?: 'blob'): Promise<T> {
  const headers = new Headers(init.headers);
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const res = await fetch(path, { ...init, method, headers, credentials: 'include', body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    const text = await res.text();
    let detail = text || res.statusText;
    let code: string | null = null;
    let error: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: string; code?: string } };
      if (parsed.error?.message) detail = parsed.error.message;
      code = parsed.error?.code ?? null;
      error = (parsed.error as Record<string, unknown> | undefined) ?? null;
    } catch {
      // not JSON: keep the text
    }
    if (audience === 'admin' && code && SIGN_IN_AGAIN_CODES.includes(code)) onSessionEnded(detail);
    throw new ApiCallError(res.status, `${res.status}: ${detail}`, detail, code, error);
  }
  if (res.status === 204) return undefined as T;
  if (read === 'blob') return (await res.blob()) as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

const client = (audience: Audience) => ({
  get: <T>(path: string, init?: RequestInit) => request<T>(audience, 'GET', path, undefined, init),
  post: <T>(path: string, body?: unknown, init?: RequestInit) => request<T>(audience, 'POST', path, body, init),
  /** A POST whose answer is a file (a picture): read as a Blob. */
  postForBlob: (path: string, body?: unknown) => request<Blob>(audience, 'POST', path, body, {}, 'blob'),
  patch: <T>(path: string, body: unknown, init?: RequestInit) => request<T>(audience, 'PATCH', path, body, init),
  put: <T>(path: string, body: unknown) => request<T>(audience, 'PUT', path, body),
  delete: <T>(path: string) => request<T>(audience, 'DELETE', path),
});

/** Calls of the console: signed in by the session cookie. */
export const api = client('admin');
/** Calls of the public pages (a signed-in person's cookie goes along: drafts open for them). */
export const publicApi = client('public');

/** A human message from any thrown value. */
export const errorText = (e: unknown) => (e instanceof ApiCallError ? e.detail : e instanceof Error ? e.message : String(e));
