import { Suspense } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { ErrorBoundary } from '@/components/ui/error-boundary.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { PublicOnly, RequireAuth, SessionGate } from './guards.tsx';
import { AuthLayout, LoginPage, NotFoundPage, ShellLayout } from './lazy-screens.ts';
import { screenRoutes } from './screen-routes.tsx';

/** The route table of core §2 with its guards; screen-routes.tsx lists the signed-in screens. */
const routes: RouteObject[] = [
  {
    element: <AuthLayout />,
    children: [
      {
        path: 'auth/login',
        element: (
          <PublicOnly>
            <LoginPage />
          </PublicOnly>
        ),
      },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <ShellLayout />,
        children: [{ index: true, element: <Navigate to="/account" replace /> }, ...screenRoutes],
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

/** Resolves the URL to a screen, behind the session check and a page-level error boundary. */
export function AppRoutes() {
  const { pathname } = useLocation();
  const element = useRoutes(routes);
  return (
    <ErrorBoundary fullPage resetKey={pathname}>
      <Suspense fallback={<PageLoader fullPage />}>
        <SessionGate>{element}</SessionGate>
      </Suspense>
    </ErrorBoundary>
  );
}
