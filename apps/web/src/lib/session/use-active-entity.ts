import { useSyncExternalStore } from 'react';
import { activeEntityOf } from './acting-entity.ts';
import { actingEntity } from './acting-entity-state.ts';
import { useSession } from './use-session.ts';

/** The entity the superadmin opened in this tab, or null (also null for everyone else's view). */
export function useActingEntity(): string | null {
  return useSyncExternalStore(actingEntity.subscribe, actingEntity.get);
}

/** The entity entity screens act in (see activeEntityOf); '' when a superadmin has opened none. */
export function useActiveEntity(): string {
  return activeEntityOf(useSession(), useActingEntity()) ?? '';
}
