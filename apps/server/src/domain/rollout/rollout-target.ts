import { and, asc, eq, type SQL } from 'drizzle-orm';
import { DeviceFilterQuerySchema, type DeviceFilterQuery } from '@fleet/shared/schemas/device';
import { parseViewQuery } from '@fleet/shared/schemas/device-view';
import { parseFilterQuery, type RolloutTarget } from '@fleet/shared/schemas/rollout';
import type { Executor } from '../../db/client.ts';
import { devices, savedViews } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { deviceFilter } from '../device/device-filter.ts';

/**
 * The shared saved view of the entity by name (the oldest, should two share a name): its query
 * as the list reads it. A view that is not there, or not shared, is `status` (400 when a rollout
 * is created, 409 when it starts).
 */
async function viewFilter(db: Executor, entity: string, name: string, status: number): Promise<DeviceFilterQuery> {
  const [view] = await db
    .select({ query: savedViews.query })
    .from(savedViews)
    .where(and(eq(savedViews.entity, entity), eq(savedViews.name, name), eq(savedViews.shared, true)))
    .orderBy(asc(savedViews.created_at))
    .limit(1);
  if (!view) throw new HttpError(status, `No shared saved view named ${name}`, 'Share the view with the entity first');
  // The list's query (its page and sort play no part); the entity is always the rollout's.
  return parseViewQuery(view.query);
}

/**
 * A target as a device-list filter: a group or site is its filter field, a view its saved
 * query, the entity no filter at all. `status` is the answer when a view is missing.
 */
export async function targetFilter(
  db: Executor,
  entity: string,
  target: RolloutTarget,
  status = 409,
): Promise<DeviceFilterQuery> {
  if (target.kind === 'view') return viewFilter(db, entity, target.name, status);
  if (target.kind === 'filter') {
    const parsed = parseFilterQuery(target.query);
    // Validated when the rollout was created; a query no longer valid reaches nothing.
    if (!parsed.success) throw new HttpError(409, `The rollout's filter is not valid: ${parsed.error}`);
    return parsed.data;
  }
  const raw: Record<string, string> = {};
  if (target.kind === 'group') raw.group = target.name;
  if (target.kind === 'site') raw.site = target.name;
  return DeviceFilterQuerySchema.parse(raw);
}

/**
 * The WHERE of the devices a rollout reaches: the target's filter, read with the device list's
 * own filter (so it means what the list shows), inside the entity, of the firmware's device type
 * (any type for a file-set rollout: `deviceType` null).
 */
export function targetWhere(entity: string, filter: DeviceFilterQuery, deviceType: string | null, now = Date.now()) {
  const where: SQL = deviceFilter(entity, filter, now)!;
  return deviceType === null ? where : and(where, eq(devices.manufacturing_type, deviceType as 'CC1'))!;
}
