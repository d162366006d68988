import { use, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LOGIN_PATH, loginPathFor } from '@/lib/navigation/redirect-target.ts';
import { session } from '@/lib/session/session.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { sessionReady } from './session-runtime.ts';

/** Suspends the first render until the stored session has been checked (core §4). */
export function SessionGate({ children }: { children: ReactNode }) {
  use(sessionReady());
  return children;
}

/**
 * Guards every non-public route. It re-renders on any session change, so a sign-out (here,
 * in another tab, or after a failed refresh) leaves at once. The target keeps search and hash.
 */
export function RequireAuth() {
  const current = useSession();
  const location = useLocation();
  if (current.status === 'signed-in') return <Outlet />;
  const target =
    current.signOutReason === 'logout'
      ? LOGIN_PATH
      : loginPathFor(`${location.pathname}${location.search}${location.hash}`);
  return <Navigate to={target} replace />;
}

/**
 * Public-only pages (/auth/login) send a visitor who is already signed in to "/" (core §2).
 * Decided once on arrival, so the login form's own post-sign-in navigation is not overtaken.
 */
export function PublicOnly({ children }: { children: ReactNode }) {
  const [signedInOnArrival] = useState(() => session.getSnapshot().status === 'signed-in');
  return signedInOnArrival ? <Navigate to="/" replace /> : children;
}
