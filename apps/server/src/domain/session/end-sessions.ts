import type { AuditContext } from '../audit/audit-context.ts';
import { audited, type AuditEntryInput } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { revokeFamilies } from './session-guard.ts';

/**
 * Revokes session families and makes every instance refuse their access tokens at once; with
 * `audit`, its entry is recorded in the same transaction (sign-out, a family revoked on reuse).
 */
export async function endSessions(
  deps: Deps,
  familyIds: string[],
  audit?: { ctx: AuditContext; entry: AuditEntryInput },
): Promise<void> {
  if (familyIds.length === 0) return;
  if (audit) await audited(deps.db, audit.ctx, audit.entry, (tx) => revokeFamilies(tx, familyIds));
  else await revokeFamilies(deps.db, familyIds);
  announceEndedSessions(deps, familyIds);
}

/** For families already gone from the database (deleted with their account): tell every instance. */
export function announceEndedSessions(deps: Deps, familyIds: string[]): void {
  if (familyIds.length === 0) return;
  deps.sessions.markRevoked(familyIds);
  void deps.bus.publish('families.revoked', { ids: familyIds });
}
