import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices, firmware, groups, sites } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';

export type FirmwareRow = typeof firmware.$inferSelect;

/** A device as a firmware update sees it: its type and where it sits (group, and that group's site). */
export interface Placed {
  name: string;
  type: 'CC1' | 'CC2';
  group: string | null;
  site: string | null;
}

const anyOf = (values: string[]) => sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;

/**
 * The named devices of the entity with their type and place: the stable ids of their group and
 * of that group's site (uploads name sites and groups by id), null where there is none.
 */
export async function placeDevices(db: Db, entity: string, names: string[]): Promise<Placed[]> {
  return db
    .select({ name: devices.name, type: devices.manufacturing_type, group: groups.id, site: sites.id })
    .from(devices)
    .leftJoin(groups, and(eq(groups.entity, devices.entity), eq(groups.name, devices.group)))
    .leftJoin(sites, and(eq(sites.entity, groups.entity), eq(sites.name, groups.site)))
    .where(and(eq(devices.entity, entity), sql`${devices.name} = ${anyOf(names)}`));
}

/**
 * The firmware for one kind of device: the newest (by release date) for its type at the most
 * specific level that has one — its group, then its site, then the entity. Null when none.
 */
export async function newestFirmwareFor(db: Db, entity: string, d: Omit<Placed, 'name'>) {
  const [row] = await db
    .select()
    .from(firmware)
    .where(
      and(
        eq(firmware.entity, entity),
        eq(firmware.device_type, d.type),
        sql`((${firmware.level} = 'group' and ${firmware.target} = ${d.group})
          or (${firmware.level} = 'site' and ${firmware.target} = ${d.site})
          or (${firmware.level} = 'entity' and ${firmware.target} = ${entity}))`,
      ),
    )
    .orderBy(
      sql`case ${firmware.level} when 'group' then 0 when 'site' then 1 else 2 end`,
      sql`${firmware.release_date} desc`,
      sql`${firmware.id} desc`,
    )
    .limit(1);
  return row ?? null;
}

/** One firmware of the entity by id; another entity's (or a malformed id) is 404. */
export async function firmwareById(db: Db, entity: string, id: string): Promise<FirmwareRow> {
  const [row] = await db
    .select()
    .from(firmware)
    .where(and(eq(firmware.entity, entity), eq(firmware.id, id)));
  if (!row) throw notFound('Firmware');
  return row;
}
