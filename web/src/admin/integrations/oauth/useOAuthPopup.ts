import { useCallback, useEffect, useRef } from 'react';
import { OAUTH_COMPLETE, type OAuthCompleteMessage } from '@common/schemas/integration';
import { OAUTH_POPUP } from '@common/constants';
import { integrationsApi } from '../api';

export interface PopupHandlers {
  onSuccess(): void;
  onError(error: string | null): void;
  onCancel(): void;
  onBlocked(): void;
}

const isComplete = (d: unknown): d is OAuthCompleteMessage => typeof d === 'object' && d !== null && (d as { type?: unknown }).type === OAUTH_COMPLETE;

/**
 * The 800×800 authorization popup: listens for OAUTH_COMPLETE from our own origin,
 * checks every second whether it was closed (a still-pending integration = cancelled), and
 * drops the listener after 5 minutes.
 */
export function useOAuthPopup(): (authUrl: string, integrationId: string, handlers: PopupHandlers) => void {
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);

  return useCallback((authUrl, integrationId, handlers) => {
    stop.current?.();
    const { width, height } = OAUTH_POPUP;
    const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
    const popup = window.open(authUrl, 'zendesk-oauth', `width=${width},height=${height},left=${left},top=${top}`);
    if (!popup) return handlers.onBlocked();
    let settled = false;
    const onMessage = (ev: MessageEvent) => {
      if (ev.origin !== window.location.origin || !isComplete(ev.data) || settled) return;
      settled = true;
      done();
      try {
        popup.close();
      } catch {
        // already closed
      }
      if (ev.data.success) handlers.onSuccess();
      else handlers.onError(ev.data.error);
    };
    const check = setInterval(() => {
      if (!popup.closed || settled) return;
      settled = true;
      done();
      integrationsApi
        .list()
        .then((list) => {
          const it = list.find((i) => i.id === integrationId);
          if (it?.status === 'active') handlers.onSuccess();
          else if (!it || it.status === 'pending') handlers.onCancel();
          else handlers.onError(it.config.lastSyncErrors[0] ?? null);
        })
        .catch(() => handlers.onCancel());
    }, OAUTH_POPUP.closedCheckMs);
    const ttl = setTimeout(done, OAUTH_POPUP.listenerTtlMs);
    function done() {
      clearInterval(check);
      clearTimeout(ttl);
      window.removeEventListener('message', onMessage);
      stop.current = null;
    }
    window.addEventListener('message', onMessage);
    stop.current = done;
  }, []);
}
