import type { Config } from './types';

/**
 * The HTTP API form's values, flat for the form's fields, and the config they make. Empty fields
 * are left out of the config (the server's schema says what is required).
 */
export interface ApiValues {
  url: string;
  method: 'GET' | 'POST';
  headers: { name: string; value: string }[];
  body: string;
  authType: 'none' | 'bearer' | 'basic' | 'header' | 'oauth2';
  token: string;
  username: string;
  password: string;
  headerName: string;
  headerValue: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  recordsPath: string;
  pagination: 'none' | 'next-url' | 'link-header' | 'cursor' | 'page' | 'offset';
  nextPath: string;
  cursorParam: string;
  cursorPath: string;
  pageParam: string;
  pageStart: number | null;
  offsetParam: string;
  limitParam: string;
  limit: number | null;
  primaryKey: string;
  incrementalField: string;
  incrementalParam: string;
  maxPages: number | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const obj = (v: unknown): Config => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Config) : {});

export function apiValues(config: Config | null): ApiValues {
  const c = config ?? {};
  const auth = obj(c.auth);
  const p = obj(c.pagination);
  const inc = obj(c.incremental);
  return {
    url: str(c.url),
    method: c.method === 'POST' ? 'POST' : 'GET',
    headers: Object.entries(obj(c.headers)).map(([name, value]) => ({ name, value: str(value) })),
    body: c.body === undefined ? '' : JSON.stringify(c.body, null, 2),
    authType: (['bearer', 'basic', 'header', 'oauth2'].includes(str(auth.type)) ? auth.type : 'none') as ApiValues['authType'],
    token: str(auth.token),
    username: str(auth.username),
    password: str(auth.password),
    headerName: str(auth.name),
    headerValue: str(auth.value),
    tokenUrl: str(auth.tokenUrl),
    clientId: str(auth.clientId),
    clientSecret: str(auth.clientSecret),
    scope: str(auth.scope),
    recordsPath: str(c.recordsPath),
    pagination: (['next-url', 'link-header', 'cursor', 'page', 'offset'].includes(str(p.type)) ? p.type : 'none') as ApiValues['pagination'],
    nextPath: p.type === 'next-url' ? str(p.path) : '',
    cursorParam: p.type === 'cursor' ? str(p.param) : '',
    cursorPath: p.type === 'cursor' ? str(p.path) : '',
    pageParam: p.type === 'page' ? str(p.param) : 'page',
    pageStart: num(p.start),
    offsetParam: p.type === 'offset' ? str(p.param) : 'offset',
    limitParam: p.type === 'offset' ? str(p.limitParam) : 'limit',
    limit: num(p.limit) ?? 100,
    primaryKey: str(c.primaryKey),
    incrementalField: str(inc.field),
    incrementalParam: str(inc.param),
    maxPages: num(c.maxPages),
  };
}

/** Drops the fields a person left empty. */
const some = (o: Config): Config => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== null));
const text = (v: string | undefined) => (v ?? '').trim() || undefined;

/** The body as JSON: its text if it does not parse (the server then says what is wrong with it). */
function bodyOf(v: string): unknown {
  if (!v.trim()) return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function authOf(v: ApiValues): Config | undefined {
  if (v.authType === 'bearer') return { type: 'bearer', token: v.token };
  if (v.authType === 'basic') return { type: 'basic', username: v.username, password: v.password ?? '' };
  if (v.authType === 'header') return { type: 'header', name: text(v.headerName), value: v.headerValue };
  if (v.authType === 'oauth2') return some({ type: 'oauth2', tokenUrl: text(v.tokenUrl), clientId: text(v.clientId), clientSecret: v.clientSecret, scope: text(v.scope) });
  return undefined;
}

function paginationOf(v: ApiValues): Config | undefined {
  if (v.pagination === 'next-url') return { type: 'next-url', path: text(v.nextPath) };
  if (v.pagination === 'link-header') return { type: 'link-header' };
  if (v.pagination === 'cursor') return { type: 'cursor', param: text(v.cursorParam), path: text(v.cursorPath) };
  if (v.pagination === 'page') return some({ type: 'page', param: text(v.pageParam), start: v.pageStart ?? undefined });
  if (v.pagination === 'offset') return { type: 'offset', param: text(v.offsetParam), limitParam: text(v.limitParam), limit: v.limit ?? undefined };
  return undefined;
}

export function apiConfig(v: ApiValues): Config {
  const headers = Object.fromEntries((v.headers ?? []).filter((h) => h?.name?.trim()).map((h) => [h.name.trim(), h.value ?? '']));
  return some({
    url: text(v.url),
    method: v.method === 'POST' ? 'POST' : undefined,
    headers: Object.keys(headers).length ? headers : undefined,
    body: v.method === 'POST' ? bodyOf(v.body ?? '') : undefined,
    auth: authOf(v),
    recordsPath: text(v.recordsPath),
    pagination: paginationOf(v),
    primaryKey: text(v.primaryKey),
    incremental: text(v.incrementalField) ? some({ field: text(v.incrementalField), param: text(v.incrementalParam) }) : undefined,
    maxPages: v.maxPages ?? undefined,
  });
}
