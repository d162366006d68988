import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordset, rowsOf } from '../../db/raw-sql.ts';
import { devices } from '../../db/schema.ts';

/** What a flush knows of one device: the report's fields by column, and its receive time. */
export interface DeviceNews {
  name: string;
  state?: string;
  fw_version?: string;
  battery?: number;
  is_charging?: boolean;
  online?: boolean;
  /** Receive time of the last sign of life, ISO; absent when only an absence was reported. */
  seen_at?: string;
}

/** A device row the update changed, with whether it was online before. */
export interface UpdatedDevice {
  name: string;
  entity: string;
  was_online: boolean;
  online: boolean;
}

/**
 * How stale a device's last-seen time may be before a mere sign of life rewrites it. The 20-minute
 * rule and "last seen" need no finer grain, and a busy device (provisioning reports ten times a
 * second) would otherwise rewrite its row at every flush.
 */
const SEEN_RESOLUTION = '5 seconds';

/**
 * Merges the news of many devices into their rows in one statement, in name order (one order for
 * every instance, so two flushes touching the same devices cannot deadlock). A row changes only
 * when something in it does, or its last-seen time is more than SEEN_RESOLUTION old; answers the
 * rows that changed.
 */
export async function updateDevices(db: Db, batch: DeviceNews[]): Promise<UpdatedDevice[]> {
  batch.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const v = recordset(batch, {
    table: devices,
    columns: ['name', 'fw_version', 'battery', 'is_charging', 'online'],
    extra: { state: 'text', seen_at: 'timestamptz' },
  });
  return rowsOf<UpdatedDevice>(
    await db.execute(sql`
      with v as (select * from ${v}),
      old as (select d.name, d.online from devices d join v on v.name = d.name)
      update devices d set
        state_current = coalesce(v.state, d.state_current),
        fw_version = coalesce(v.fw_version, d.fw_version),
        battery = coalesce(v.battery, d.battery),
        is_charging = coalesce(v.is_charging, d.is_charging),
        online = coalesce(v.online, d.online),
        updated_at = greatest(d.updated_at, coalesce(v.seen_at, d.updated_at))
      from v join old on old.name = v.name
      where d.name = v.name and (
        v.state is not null and v.state is distinct from d.state_current
        or v.fw_version is not null and v.fw_version is distinct from d.fw_version
        or v.battery is not null and v.battery is distinct from d.battery
        or v.is_charging is not null and v.is_charging is distinct from d.is_charging
        or v.online is not null and v.online is distinct from d.online
        or v.seen_at > d.updated_at + ${SEEN_RESOLUTION}::interval)
      returning d.name, d.entity, old.online as was_online, d.online`),
  );
}
