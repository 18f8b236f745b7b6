import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Spin } from 'antd';

const Landing = lazy(() => import('./public/LandingPage'));
const NotFound = lazy(() => import('./public/NotFoundPage'));
const Admin = lazy(() => import('./admin/AdminPage'));
const UserShell = lazy(() => import('./public/shell/UserShell'));
const DashboardsList = lazy(() => import('./public/DashboardsListPage'));
const ComingSoon = lazy(() => import('./public/shell/ComingSoonPage'));
const Viewer = lazy(() => import('./public/viewer/ViewerPage'));

const fallback = <Spin style={{ display: 'block', margin: '20vh auto' }} />;

/**
 * Every route is its own lazily loaded chunk. The named shell sections (analytics, reports,
 * settings) rank above `/dashboards/:id`, so they win over a dashboard id (DECISIONS.md).
 */
export function AppRoutes() {
  return (
    <Suspense fallback={fallback}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/admin" element={<Admin />} />
        <Route path="/dashboards" element={<UserShell />}>
          <Route index element={<DashboardsList />} />
          <Route path="analytics/*" element={<ComingSoon />} />
          <Route path="reports/*" element={<ComingSoon />} />
          <Route path="settings/*" element={<ComingSoon />} />
        </Route>
        <Route path="/dashboards/:id" element={<Viewer />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
