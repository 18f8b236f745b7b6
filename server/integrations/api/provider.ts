import { ApiConfig } from '@common/schemas/integrations/api';
import { OutboundRefused, checkOutboundUrl } from '../../core';
import type { PullProvider, TargetProblem } from '../provider';
import { apiPages } from './pages';
import { apiSecrets } from './secrets';

/** What an API integration reads, shown on its card: host and path (the query may hold a key). */
function describe(config: ApiConfig): string {
  try {
    const u = new URL(config.url);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return config.url;
  }
}

/** The URL and the token URL must pass the one way out's rule, without connecting. */
function checkTarget(config: ApiConfig, allowed: readonly string[]): TargetProblem | null {
  const places: [string, string | undefined][] = [['url', config.url], ['auth.tokenUrl', config.auth?.type === 'oauth2' ? config.auth.tokenUrl : undefined]];
  for (const [path, url] of places) {
    if (!url) continue;
    try {
      checkOutboundUrl(url, allowed);
    } catch (e) {
      if (e instanceof OutboundRefused) return { path, message: `${path === 'url' ? 'The URL' : 'The token URL'} ${e.message}` };
      throw e;
    }
  }
  return null;
}

/** Any HTTP JSON API, page by page (server/integrations/README.md, "HTTP API"). */
export const apiProvider: PullProvider<ApiConfig> = {
  type: 'api',
  label: 'HTTP API',
  unit: 'page',
  config: ApiConfig,
  secrets: apiSecrets,
  describe,
  checkTarget,
  pages: apiPages,
};
