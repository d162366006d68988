import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { permanentTokens } from '../../db/schema.ts';
import type { Deps } from '../deps.ts';
import { announceEndedSessions } from '../session/end-sessions.ts';
import { familiesOf } from '../session/session-guard.ts';

/** The hashes of the permanent tokens of these accounts. */
export async function tokenHashesOf(db: Executor, accountIds: string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .select({ hash: permanentTokens.token_hash })
    .from(permanentTokens)
    .where(inArray(permanentTokens.account_id, accountIds));
  return rows.map((r) => r.hash);
}

/** Everything that lets these accounts act: session families and permanent tokens. */
export async function credentialsOf(db: Executor, accountIds: string[]) {
  const [families, hashes] = await Promise.all([familiesOf(db, accountIds), tokenHashesOf(db, accountIds)]);
  return { families, hashes };
}

/** After accounts were removed: every instance stops accepting their sessions and tokens now. */
export function announceRemoved(deps: Deps, creds: { families: string[]; hashes: string[] }): void {
  announceEndedSessions(deps, creds.families);
  forgetTokens(deps, creds.hashes);
}

/** Every instance re-reads these permanent tokens (revoked, or their account changed). */
export function forgetTokens(deps: Deps, hashes: string[]): void {
  if (hashes.length === 0) return;
  deps.apiTokens.forget(hashes);
  void deps.bus.publish('tokens.changed', { hashes });
}
