import { count, desc, eq } from 'drizzle-orm';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { allocations } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { findDeviceInScope } from '../device/device-scope.ts';
import { presentAllocationsFor } from './present-allocation.ts';

/**
 * The device's allocations, newest first (open and closed): what the device screen's history
 * shows. A dataview's content only to those who may read that dataview; others see its name.
 */
export async function listAllocations(
  db: Executor,
  actor: AccessClaims,
  scope: Scope,
  device: string,
  page: PageQuery,
) {
  await findDeviceInScope(db, device, scope);
  const where = eq(allocations.device, device);
  const query = db
    .select()
    .from(allocations)
    .where(where)
    .orderBy(desc(allocations.allocated_at), desc(allocations.id))
    .offset(page.offset);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    page.limit > 0 ? query.limit(page.limit) : query,
    db.select({ total: count() }).from(allocations).where(where),
  ]);
  return { data: await presentAllocationsFor(db, actor, rows), total };
}
