import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** True when the router has an earlier entry of this app to go back to. */
function canGoBack(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && 'idx' in state && typeof state.idx === 'number'
    ? state.idx > 0
    : false;
}

/**
 * Returns a function that goes back one step, or replaces the page with `fallback` when this
 * page was opened directly (no history inside the app): Cancel buttons and unknown names.
 */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (canGoBack()) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
