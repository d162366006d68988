import type { Deps } from '../deps.ts';
import { revokeFamilies } from './session-guard.ts';

/** Revokes session families and makes every instance refuse their access tokens at once. */
export async function endSessions(deps: Deps, familyIds: string[]): Promise<void> {
  if (familyIds.length === 0) return;
  await revokeFamilies(deps.db, familyIds);
  announceEndedSessions(deps, familyIds);
}

/** For families already gone from the database (deleted with their account): tell every instance. */
export function announceEndedSessions(deps: Deps, familyIds: string[]): void {
  if (familyIds.length === 0) return;
  deps.sessions.markRevoked(familyIds);
  void deps.bus.publish('families.revoked', { ids: familyIds });
}
