import type { ApiConfig } from '@common/schemas/integrations/api';
import { SECRET_MASK, type ProviderSecrets } from '../provider';
import { placedSecrets } from '../secrets';

/**
 * An API's secrets: the auth's token, password, header value or client secret; the value of every
 * header whose name says it carries a credential (`X-Api-Key`, `Cookie`…); and the value of every
 * query parameter of the URL whose name says so (`?api_key=…`).
 */

const SENSITIVE = /auth|token|key|secret|password|passwd|cookie|session|signature|credential|sig$/i;

export const sensitiveName = (name: string) => SENSITIVE.test(name);

const AUTH_SECRET: Record<string, string> = { bearer: 'token', basic: 'password', header: 'value', oauth2: 'clientSecret' };

function places(c: ApiConfig): string[][] {
  const out: string[][] = [];
  const authType = (c.auth as { type?: string } | undefined)?.type;
  if (authType && AUTH_SECRET[authType]) out.push(['auth', AUTH_SECRET[authType]]);
  for (const name of Object.keys(c.headers ?? {})) if (sensitiveName(name)) out.push(['headers', name]);
  return out;
}

/** Where an API's secrets go: the URL's origin and the token URL's. */
const destination = (c: ApiConfig) => {
  const origin = (u: string | undefined) => {
    try {
      return u ? new URL(u).origin : '';
    } catch {
      return u ?? '';
    }
  };
  return [origin(c.url), origin((c.auth as { tokenUrl?: string } | undefined)?.tokenUrl)].filter(Boolean).join(' and ');
};

/** The URL's query parameters that carry credentials, with their values. */
function urlSecrets(url: unknown): [string, string][] {
  if (typeof url !== 'string') return [];
  try {
    return [...new URL(url).searchParams].filter(([k, v]) => sensitiveName(k) && v !== '' && v !== SECRET_MASK);
  } catch {
    return [];
  }
}

const decode = (v: string) => {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return v;
  }
};

/** The URL with each credential parameter's value replaced (its other characters untouched). */
function withUrlValues(url: string, value: (name: string, current: string) => string | null): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0) return part;
    const name = decode(part.slice(0, eq));
    if (!sensitiveName(name)) return part;
    const current = decode(part.slice(eq + 1));
    const next = value(name, current);
    return next === null ? part : `${part.slice(0, eq)}=${next === SECRET_MASK ? SECRET_MASK : encodeURIComponent(next)}`;
  });
  return `${url.slice(0, q + 1)}${parts.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

const placed = placedSecrets<ApiConfig>(places, destination);

export const apiSecrets: ProviderSecrets<ApiConfig> = {
  mask(config) {
    const out = placed.mask(config) as ApiConfig;
    return { ...out, url: withUrlValues(config.url, (_n, v) => (v ? SECRET_MASK : null)) };
  },
  keep(sent, stored) {
    const { config, kept } = placed.keep(sent, stored);
    const c = config as { url?: unknown };
    if (typeof c.url === 'string' && c.url.includes(SECRET_MASK)) {
      const before = new Map(urlSecrets(stored.url));
      c.url = withUrlValues(c.url, (name, v) => {
        if (v !== SECRET_MASK) return null;
        const old = before.get(name);
        if (old === undefined) return '';
        kept.push('url');
        return old;
      });
    }
    return { config: c, kept };
  },
  values: (config) => [
    ...placed.values(config),
    ...urlSecrets(config.url).map(([, v]) => v),
    // What a basic-auth header carries: the password in base64, as an API may echo it.
    ...(config.auth?.type === 'basic' && config.auth.password ? [Buffer.from(`${config.auth.username}:${config.auth.password}`, 'utf8').toString('base64')] : []),
  ],
  destination,
};
