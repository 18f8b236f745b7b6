import { App as AntApp, ConfigProvider } from 'antd';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes } from './routes';
import { useReducedMotion } from './useReducedMotion';
// Registers its back-button listener before the router's (see leaveGuard.ts).
import './leaveGuard';

/**
 * The whole web app: antd theme, one toast at a time, and the routes. Someone who asked their system
 * to reduce motion gets dialogs, drawers and lists that appear without sliding or fading.
 */
export function App() {
  const reducedMotion = useReducedMotion();
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#2563eb', borderRadius: 8, motion: !reducedMotion } }}>
      <AntApp message={{ maxCount: 1, duration: 5 }} notification={{ maxCount: 1, duration: 5, placement: 'bottomRight', top: 64 }}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
