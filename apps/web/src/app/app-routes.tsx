import { Suspense } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
import { ErrorBoundary } from '@/components/ui/error-boundary.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { AccessGate } from './access-gate.tsx';
import { PublicOnly, RequireAuth, SessionGate } from './guards.tsx';
import { LoginPage } from '@/routes/auth/login-page.tsx';
import { SsoCallbackPage } from '@/routes/auth/sso-callback-page.tsx';
import { AuthLayout } from './layouts/auth-layout.tsx';
import { NotFoundPage, ShellLayout } from './lazy-screens.ts';
import { screenRoutes } from './screen-routes.tsx';

/**
 * The route table of core §2 with its guards; screen-routes.tsx lists the signed-in screens.
 * The sign-in page is imported directly, not lazily: its first render must not suspend, so it
 * replaces the server's prerendered copy (dist/login.html) without a loader in between.
 */
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
      // Back from an identity provider (docs/sso.md): not public-only, the code is spent either way.
      { path: 'auth/sso', element: <SsoCallbackPage /> },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <ShellLayout />,
        children: [
          { index: true, element: <Navigate to="/account" replace /> },
          // Each screen behind the shared access rule: one the account may not use says so.
          { element: <AccessGate />, children: screenRoutes },
        ],
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
