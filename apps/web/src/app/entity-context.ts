import { actingEntity } from '@/lib/session/acting-entity-state.ts';
import { queryClient } from './query-client.ts';

// Many screens key their cache by name only (the entity is implied), so nothing read in one
// entity may show in another: the cache is emptied on every change of the opened entity.

/** The superadmin opens `entity` in this tab (call before the screens that read it mount). */
export function enterEntity(entity: string): void {
  if (actingEntity.get() === entity) return;
  queryClient.removeQueries();
  actingEntity.set(entity);
}

/** Back to the landlord view (call before the landlord screens mount). */
export function leaveEntity(): void {
  if (actingEntity.get() === null) return;
  queryClient.removeQueries();
  actingEntity.set(null);
}
