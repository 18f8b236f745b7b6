import { App } from 'antd';
import { useMemo } from 'react';

/** Spec toasts (title and optional text) through antd notification: one visible at a time. */
export function useToast() {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      success: (title: string, text?: string) => notification.success({ title, description: text }),
      error: (title: string, text?: string) => notification.error({ title, description: text }),
      info: (title: string, text?: string) => notification.info({ title, description: text }),
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
