import { sql, type SQL } from 'drizzle-orm';
import { parseViewQuery } from '@fleet/shared/schemas/device-view';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { deviceFilter } from '../device/device-filter.ts';

/**
 * Rules scoped to a saved view (`scope: 'view'`) alert the devices the view's filter matches:
 * the entity's shared view of that name (the oldest, should two share it), read as the device list
 * reads it. For the entities of the devices `names`, answers SQL over `d` (the device) and `r`
 * (the rule) that says whether `d` is in `r`'s view: one EXISTS per view-scoped rule, each the
 * list's own WHERE. A rule whose view is gone or no longer shared matches nothing.
 */
export async function viewScopes(db: Executor, names: SQL, now: Date): Promise<SQL> {
  const rules = rowsOf<{ id: string; entity: string; query: string }>(
    await db.execute(sql`
      select distinct on (r.id) r.id::text, r.entity, v.query
      from alert_rules r join saved_views v on v.entity = r.entity and v.name = r.scope_name and v.shared
      where r.scope = 'view' and r.enabled and r.entity in (select entity from devices where name in ${names})
      order by r.id, v.created_at`),
  );
  if (rules.length === 0) return sql`false`;
  const cases = rules.map((rule) => {
    const where = deviceFilter(rule.entity, parseViewQuery(rule.query), now.getTime());
    return sql`when ${rule.id} then exists (select 1 from devices where devices.name = d.name and ${where ?? sql`true`})`;
  });
  return sql`(r.scope = 'view' and case r.id::text ${sql.join(cases, sql` `)} else false end)`;
}
