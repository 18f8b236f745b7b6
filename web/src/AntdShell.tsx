import { App as AntApp, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { PublicTheme } from './public/PublicTheme';
import { useReducedMotion } from './useReducedMotion';
import { APP_THEME } from './appTheme';

/**
 * antd's theme and one toast at a time, around every page drawn with antd (the console, the
 * landing page, the dashboards list…): its own chunk, so the public viewer — drawn without antd —
 * never downloads it. Someone who asked their system to reduce motion gets dialogs, drawers and
 * lists that appear without sliding or fading. `publicPage` adds the public pages' readable text.
 */
export default function AntdShell({ publicPage, children }: { publicPage?: boolean; children: ReactNode }) {
  const reducedMotion = useReducedMotion();
  return (
    <ConfigProvider theme={{ token: { ...APP_THEME, motion: !reducedMotion } }}>
      <AntApp message={{ maxCount: 1, duration: 5 }} notification={{ maxCount: 1, duration: 5, placement: 'bottomRight', top: 64 }}>
        {publicPage ? <PublicTheme>{children}</PublicTheme> : children}
      </AntApp>
    </ConfigProvider>
  );
}
