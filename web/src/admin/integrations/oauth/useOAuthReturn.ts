import { useEffect } from 'react';
import { App } from 'antd';

/** Query parameters the OAuth callback page sends the console to. */
const PARAMS = ['oauth', 'provider', 'error', 'integrationId'];
let handledSearch: string | null = null;

/**
 * Handles the /admin?oauth=…&provider=…&error=…&integrationId=… return of the OAuth popup:
 * opens Data Sources > Integrations with the right toast, then resets the address.
 * The admin shell calls it once with its navigate function.
 */
export function useOAuthReturn(navigate: (mainTab: string, subTab: string) => void): void {
  const { notification } = App.useApp();
  useEffect(() => {
    const search = window.location.search;
    const params = new URLSearchParams(search);
    const oauth = params.get('oauth');
    // StrictMode runs effects twice: one toast per address.
    if (!oauth || handledSearch === search) return;
    handledSearch = search;
    const provider = params.get('provider') ?? 'zendesk';
    const providerName = provider === 'zendesk' ? 'Zendesk' : provider;
    if (oauth === 'success') {
      notification.success({ title: 'OAuth Success', description: `${providerName} integration completed successfully` });
    } else {
      notification.error({ title: 'OAuth Error', description: `Failed to complete OAuth: ${params.get('error') || 'Unknown error'}` });
    }
    // The shell keeps its place in the query; navigating replaces it, which drops the OAuth parameters.
    navigate('data-sources', 'integrations');
    const reset = setTimeout(() => {
      const now = new URL(window.location.href);
      if (PARAMS.some((p) => now.searchParams.has(p))) {
        for (const p of PARAMS) now.searchParams.delete(p);
        window.history.replaceState(window.history.state, '', `${now.pathname}${now.search}`);
      }
    }, 100);
    return () => clearTimeout(reset);
  }, [navigate, notification]);
}
