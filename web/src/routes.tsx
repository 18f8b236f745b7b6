import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router-dom';
import { SHELL_SECTIONS } from './public/shell/sections';

type Page = { default: ComponentType };

/**
 * A page drawn with antd: its chunk and antd's theme shell (AntdShell.tsx) load together, so the
 * public viewer's chunks — drawn without antd — never pull antd in.
 */
function antdPage(page: () => Promise<Page>, publicPage = false) {
  return lazy(async () => {
    const [shell, { default: Content }] = await Promise.all([import('./AntdShell'), page()]);
    const Shell = shell.default;
    return { default: () => <Shell publicPage={publicPage}><Content /></Shell> };
  });
}

const Landing = antdPage(() => import('./public/LandingPage'), true);
const NotFound = antdPage(() => import('./public/NotFoundPage'), true);
const Admin = antdPage(() => import('./admin/AdminPage'));
const Invite = antdPage(() => import('./admin/account/AcceptInvite'));
const UserShell = antdPage(() => import('./public/shell/UserShell'), true);
const DashboardsList = lazy(() => import('./public/DashboardsListPage'));
const ComingSoon = lazy(() => import('./public/shell/ComingSoonPage'));
const Viewer = lazy(() => import('./public/viewer/ViewerPage'));
const Share = lazy(() => import('./public/share/SharePage'));
const Embed = lazy(() => import('./public/embed/EmbedPage'));

// A spinner drawn by index.html's own style: the entry chunk imports no look of any page.
const fallback = (
  <div className="route-loading" role="status" aria-label="Loading">
    <span />
  </div>
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
        <Route path="/" element={<Landing />} />
        <Route path="/admin" element={<Admin />} />
        <Route path="/dashboards" element={<UserShell />}>
          <Route index element={<DashboardsList />} />
          {Object.entries(SHELL_SECTIONS).map(([section, { pages }]) => (
            <Route key={section} path={section}>
              <Route index element={<ComingSoon />} />
              {pages.map((page) => <Route key={page} path={page} element={<ComingSoon />} />)}
            </Route>
          ))}
        </Route>
        <Route path="/dashboards/:id" element={<Viewer />} />
        <Route path="/s/:token" element={<Share />} />
        <Route path="/embed/:token" element={<Embed />} />
        <Route path="/invite/:token" element={<Invite />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
