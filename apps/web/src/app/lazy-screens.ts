import { lazy } from 'react';

// Each screen is its own chunk, so the login page never downloads the shell or other screens.
export const AuthLayout = lazy(() => import('./layouts/auth-layout.tsx').then((m) => ({ default: m.AuthLayout })));
export const ShellLayout = lazy(() => import('./layouts/shell-layout.tsx').then((m) => ({ default: m.ShellLayout })));
export const LoginPage = lazy(() => import('@/routes/auth/login-page.tsx').then((m) => ({ default: m.LoginPage })));
export const NotFoundPage = lazy(() =>
  import('@/routes/errors/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);
export const NotBuiltYetPage = lazy(() =>
  import('@/routes/not-built-yet/not-built-yet-page.tsx').then((m) => ({ default: m.NotBuiltYetPage })),
);
