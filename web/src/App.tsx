import { BrowserRouter } from 'react-router-dom';
import { AppRoutes } from './routes';
// Registers its back-button listener before the router's (see leaveGuard.ts).
import './leaveGuard';

/** The whole web app: the routes (each page brings its own look: antd's theme, or the viewer's). */
export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
