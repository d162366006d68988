import { useSyncExternalStore } from 'react';
import { session } from './session.ts';
import type { SessionSnapshot } from './session-store.ts';

/** The current session; re-renders on sign-in, refresh, account load and sign-out. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(session.subscribe, session.getSnapshot);
}
