import { App } from 'antd';
import type { NotificationPlacement } from 'antd/es/notification/interface';
import { useMemo } from 'react';
import { useSubmit, type Submit } from '../../api/useSubmit';

/**
 * Where a toast goes so it never covers the buttons of the card (or dialog) it belongs to — the one
 * holding the focused control: at the bottom while that card sits in the upper half of the screen,
 * at the top otherwise. Phones get the full-width top / bottom places.
 */
export function toastPlacement(): { placement: NotificationPlacement } {
  const phone = window.innerWidth < 768;
  const holder = document.activeElement instanceof HTMLElement ? document.activeElement.closest('.ant-card, .ant-modal, [data-testid=config-editor]') : null;
  const rect = holder?.getBoundingClientRect();
  const upper = !rect || rect.top + rect.height / 2 < window.innerHeight / 2;
  if (upper) return { placement: phone ? 'bottom' : 'bottomRight' };
  // Top toasts start below the console's 56 px top bar (`top` in App.tsx).
  return { placement: phone ? 'top' : 'topRight' };
}

/** Spec toasts (title and optional text) through antd notification: one visible at a time, placed clear of their card. */
export function useToast() {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      success: (title: string, text?: string) => notification.success({ title, description: text, ...toastPlacement() }),
      error: (title: string, text?: string) => notification.error({ title, description: text, ...toastPlacement() }),
      info: (title: string, text?: string) => notification.info({ title, description: text, ...toastPlacement() }),
    }),
    [notification],
  );
}

/** Copies text to the clipboard, with a fallback for pages without the async clipboard API. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // fall through to the textarea fallback
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** `useSubmit` saying its outcome in the console's toasts. */
export function useToastSubmit(): Submit {
  return useSubmit(useToast());
}
