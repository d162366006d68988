import { sql } from 'drizzle-orm';
import type { SelectionChoices } from '@fleet/shared/schemas/selection-actions';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Scope } from '../account/account-scope.ts';
import type { FirmwareRow } from '../dfu/choose-firmware.ts';
import { findSelection } from './selection-scope.ts';

/** The name of the entity, site or group a firmware was uploaded for (its id when that is gone). */
const placeOf = sql`coalesce(case f.level
  when 'site' then (select s.name from sites s where s.entity = f.entity and s.id::text = f.target)
  when 'group' then (select g.name from groups g where g.entity = f.entity and g.id::text = f.target)
  end, f.target)`;

/** Where one firmware was uploaded, by name. */
export async function placeName(db: Db, fw: FirmwareRow): Promise<string> {
  const [row] = rowsOf<{ place: string }>(
    await db.execute(sql`select ${placeOf} as place from firmware f where f.id = ${fw.id}::uuid`),
  );
  return row?.place ?? fw.target;
}

/**
 * What a counted selection's firmware and group actions may name: the firmware of every level
 * and the groups of the entities its members belong to (the scope's own entity on its list).
 */
export async function selectionChoices(
  db: Db,
  scope: Scope,
  actor: AccessClaims,
  id: string,
): Promise<SelectionChoices> {
  const sel = await findSelection(db, scope, actor, id);
  const entities =
    scope === null
      ? sql`(select distinct m.entity from device_selection_members m where m.selection = ${sel.id}::uuid)`
      : sql`(select ${scope}::text)`;
  const firmware = rowsOf<SelectionChoices['firmware'][number]>(
    await db.execute(sql`select f.id::text as id, f.entity, f.level, ${placeOf} as place, f.device_type, f.version
      from firmware f where f.entity in ${entities}
      order by f.entity, case f.level when 'entity' then 0 when 'site' then 1 else 2 end, place,
        f.device_type, f.release_date desc`),
  );
  const groups = rowsOf<SelectionChoices['groups'][number]>(
    await db.execute(sql`select g.id::text as id, g.entity, g.name from groups g
      where g.entity in ${entities} order by g.entity, g.name`),
  );
  return { firmware, groups };
}
