import { sql } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Scope } from '../account/account-scope.ts';
import { findSelection, presentSelection } from './selection-scope.ts';

/**
 * A selection and its action's progress, read from the database (so any instance answers it):
 * devices handled, and for a command or a firmware update its rows by state (answered, waiting, held…).
 */
export async function selectionProgress(db: Db, scope: Scope, actor: AccessClaims, id: string) {
  const sel = await findSelection(db, scope, actor, id);
  if (sel.action !== 'command' && sel.action !== 'firmware') return presentSelection(sel);
  const rows = rowsOf<{ state: string; n: string | number }>(
    await db.execute(sql`select state, count(*) as n from commands where id = ${sel.id}::uuid group by state`),
  );
  const counts: Record<string, number> = { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 0, expired: 0 };
  for (const r of rows) counts[r.state] = Number(r.n);
  return presentSelection(sel, counts);
}
