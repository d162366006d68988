import { and, eq, type SQL } from 'drizzle-orm';
import { DeviceFilterQuerySchema, type DeviceFilterQuery } from '@fleet/shared/schemas/device';
import { parseFilterQuery, type RolloutTarget } from '@fleet/shared/schemas/rollout';
import { HttpError } from '../../lib/http-error.ts';
import { devices } from '../../db/schema.ts';
import { deviceFilter } from '../device/device-filter.ts';

/** A target as a device-list filter: a group or site is its filter field, the entity no filter at all. */
function asFilter(target: RolloutTarget): DeviceFilterQuery {
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
 * The WHERE of the devices a rollout reaches: the target, read with the device list's own filter
 * (so it means what the list shows), inside the entity, of the firmware's device type.
 */
export function targetWhere(entity: string, target: RolloutTarget, deviceType: string, now = Date.now()): SQL {
  return and(deviceFilter(entity, asFilter(target), now), eq(devices.manufacturing_type, deviceType as 'CC1'))!;
}
