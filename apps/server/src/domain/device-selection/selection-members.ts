import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Member } from './run-selection.ts';

/**
 * A selection's members beside their device now (`d`, null when deleted since the count), within
 * the member's own entity. `standing` below is a `case` over `m` and `d` naming each member's lot.
 */
const membersOf = (id: string) => sql`device_selection_members m
  left join devices d on d.name = m.device and d.entity = m.entity
  where m.selection = ${id}::uuid`;

/** How many members of the selection stand in each lot (the dry run's breakdown). */
export async function countStandings(db: Db, id: string, standing: SQL): Promise<Record<string, number>> {
  const rows = rowsOf<{ standing: string; n: string | number }>(
    await db.execute(sql`select ${standing} as standing, count(*) as n from ${membersOf(id)} group by 1`),
  );
  return Object.fromEntries(rows.map((r) => [r.standing, Number(r.n)]));
}

/**
 * The members of one batch that stand in `lot` now (the action reads the plan's rule again) and
 * that `acted` (a condition on `m`) does not say were acted on already: a batch redone after a
 * crash acts only on the members it had not reached.
 */
export async function batchIn(db: Executor, id: string, batch: Member[], standing: SQL, lot: string, acted?: SQL) {
  const names = JSON.stringify(batch.map((m) => m.device));
  return rowsOf<Member>(
    await db.execute(sql`select m.device, m.entity from ${membersOf(id)}
      and m.device in (select jsonb_array_elements_text(${names}::jsonb))
      and ${standing} = ${lot} ${acted ? sql`and not ${acted}` : sql``} order by m.device`),
  );
}

/** A member already has its command of the selection (commands of a selection carry its id). */
export const commandWritten = sql`exists (select 1 from commands c where c.id = m.selection and c.device = m.device)`;
