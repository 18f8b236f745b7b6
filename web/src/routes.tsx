import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Spin } from 'antd';

const Landing = lazy(() => import('./public/LandingPage'));
const NotFound = lazy(() => import('./public/NotFoundPage'));
const Admin = lazy(() => import('./admin/AdminPage'));

/** Every route is its own lazily loaded chunk. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '20vh auto' }} />}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/admin" element={<Admin />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
