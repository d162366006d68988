import { and, count, eq, lt, ne, sql } from 'drizzle-orm';
import { parseViewQuery } from '@fleet/shared/schemas/device-view';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { deviceSelectionMembers, deviceSelections, devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { deviceFilter } from '../device/device-filter.ts';
import { SELECTION_TTL_MS, presentSelection } from './selection-scope.ts';

/**
 * The dry run of "select all matching": the filter, with the scope the list uses, resolved to a
 * fixed set of devices in one statement. The action later touches exactly that set, so a device
 * registered after the count is left alone. Answers the set's id and size.
 */
export async function selectDevices(db: Db, scope: Scope, actor: AccessClaims, query: string) {
  const where = deviceFilter(scope, parseViewQuery(query));
  // A run under way is kept past the hour (a resumed run still reads its members).
  await db
    .delete(deviceSelections)
    .where(and(lt(deviceSelections.expires_at, sql`now()`), ne(deviceSelections.state, 'running')));
  const row = await db.transaction(async (tx) => {
    const [sel] = await tx
      .insert(deviceSelections)
      .values({ entity: scope, owner: actor.sub, query, total: 0, expires_at: new Date(Date.now() + SELECTION_TTL_MS) })
      .returning();
    await tx.execute(sql`
      insert into ${deviceSelectionMembers} (selection, device, entity)
      select ${sel!.id}::uuid, ${devices.name}, ${devices.entity} from ${devices} where ${where ?? sql`true`}`);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(deviceSelectionMembers)
      .where(eq(deviceSelectionMembers.selection, sel!.id));
    const [counted] = await tx
      .update(deviceSelections)
      .set({ total: n })
      .where(eq(deviceSelections.id, sel!.id))
      .returning();
    return counted!;
  });
  return presentSelection(row);
}
