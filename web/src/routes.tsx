import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Flex, Spin } from 'antd';
import { PublicTheme } from './public/PublicTheme';
import { SHELL_SECTIONS } from './public/shell/sections';

const Landing = lazy(() => import('./public/LandingPage'));
const NotFound = lazy(() => import('./public/NotFoundPage'));
const Admin = lazy(() => import('./admin/AdminPage'));
const Invite = lazy(() => import('./admin/account/AcceptInvite'));
const UserShell = lazy(() => import('./public/shell/UserShell'));
const DashboardsList = lazy(() => import('./public/DashboardsListPage'));
const ComingSoon = lazy(() => import('./public/shell/ComingSoonPage'));
const Viewer = lazy(() => import('./public/viewer/ViewerPage'));
const Share = lazy(() => import('./public/share/SharePage'));

// Padding, not margin: a child's top margin would collapse through #root and push <body> down,
// and the page would jump back up when the route's chunk arrives (a layout shift).
const fallback = (
  <Flex justify="center" style={{ paddingTop: '20vh' }}>
    <Spin />
  </Flex>
);

/**
 * Every route is its own lazily loaded chunk. The named shell sections (analytics, reports,
 * settings) rank above `/dashboards/:id`, so they win over a dashboard id (an id is never such a word); their
 * unknown sub-pages fall through to the 404 page.
 */
export function AppRoutes() {
  return (
    <Suspense fallback={fallback}>
      <Routes>
        <Route path="/" element={<PublicTheme><Landing /></PublicTheme>} />
        <Route path="/admin" element={<Admin />} />
        <Route path="/dashboards" element={<PublicTheme><UserShell /></PublicTheme>}>
          <Route index element={<DashboardsList />} />
          {Object.entries(SHELL_SECTIONS).map(([section, { pages }]) => (
            <Route key={section} path={section}>
              <Route index element={<ComingSoon />} />
              {pages.map((page) => <Route key={page} path={page} element={<ComingSoon />} />)}
            </Route>
          ))}
        </Route>
        <Route path="/dashboards/:id" element={<PublicTheme><Viewer /></PublicTheme>} />
        <Route path="/s/:token" element={<PublicTheme><Share /></PublicTheme>} />
        <Route path="/invite/:token" element={<Invite />} />
        <Route path="*" element={<PublicTheme><NotFound /></PublicTheme>} />
      </Routes>
    </Suspense>
  );
}
