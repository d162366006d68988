import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordset, rowsOf } from '../../db/raw-sql.ts';
import { devices, deviceTelemetry } from '../../db/schema.ts';

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
  /** What the flush appends to the device's history, oldest first. */
  points?: HistoryPoint[];
}

/** Reported fields as known within one flush (later reports win), before the database fills the rest. */
interface Reported {
  state?: string;
  fw_version?: string;
  battery?: number;
  is_charging?: boolean;
}

/**
 * One event of a device's history as the batcher saw it: a state report (its fields merged with
 * those reported earlier in the same flush, and the same before it) or a presence change.
 */
export interface HistoryPoint extends Reported {
  /** Receive time, ISO. */
  at: string;
  /**
   * Microseconds after `at`: points received in one millisecond are numbered 0, 1, 2… in the order
   * they came (across flushes too), so they read back in that order.
   */
  us: number;
  /** The device's own clock, ISO, when the report carried one. */
  device_at?: string;
  kind: 'state' | 'online' | 'offline';
  /** The device's first presence point in the flush: not written when the row already says so. */
  first?: boolean;
  prev_state?: string;
  prev_fw?: string;
  prev_charging?: boolean;
}

/** A device row the update changed, with whether it was online before. */
export interface UpdatedDevice {
  name: string;
  entity: string;
  was_online: boolean;
  online: boolean;
  /** Charging before and after the flush (alerts: `charging_stopped` begins where it turned false). */
  was_charging: boolean | null;
  is_charging: boolean | null;
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
  const points = batch.flatMap((n) => n.points?.map((p) => ({ device: n.name, ...p })) ?? []);
  const news = points.length === 0 ? batch : batch.map(({ points: _, ...n }) => n);
  const v = recordset(news, {
    table: devices,
    columns: ['name', 'fw_version', 'battery', 'is_charging', 'online'],
    extra: { state: 'text', seen_at: 'timestamptz' },
  });
  return rowsOf<UpdatedDevice>(
    await db.execute(sql`
      with v as (select * from ${v}),
      old as (
        select d.name, d.entity, d.online, d.state_current, d.fw_version, d.battery, d.is_charging
        from devices d join v on v.name = d.name)${points.length === 0 ? sql`` : appendHistory(points)}
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
      returning d.name, d.entity, old.online as was_online, d.online, old.is_charging as was_charging, d.is_charging`),
  );
}

/**
 * The history rows of a flush, as a further step of the device update's statement (one statement
 * a flush, history or not): each row is the device's whole state after the event, the fields the
 * flush did not report taken from the row as it was before the update (`old`). A report that
 * changed the state, firmware or charging is a `change`; a presence point that says what the row
 * already said (the broker's disconnect after the Last Will, a report from a connected device) is
 * not written. A device unknown to the table has no history. Points often share a millisecond:
 * each is written its `us` microseconds later, so they read back in the order they came.
 */
function appendHistory(points: Array<HistoryPoint & { device: string }>) {
  const p = recordset(points, {
    table: deviceTelemetry,
    columns: ['device', 'at', 'device_at', 'kind', 'state', 'battery', 'is_charging', 'fw_version'],
    extra: { us: 'int', first: 'boolean', prev_state: 'text', prev_fw: 'text', prev_charging: 'boolean' },
    as: 'p',
  });
  return sql`,
      history as (
        insert into device_telemetry (entity, device, at, device_at, kind, online, state, battery, is_charging, fw_version)
        select old.entity, p.device, p.at + p.us * interval '1 microsecond', p.device_at,
          case
            when p.kind <> 'state' then p.kind
            when coalesce(p.state, old.state_current) is distinct from coalesce(p.prev_state, old.state_current)
              or coalesce(p.fw_version, old.fw_version) is distinct from coalesce(p.prev_fw, old.fw_version)
              or coalesce(p.is_charging, old.is_charging) is distinct from coalesce(p.prev_charging, old.is_charging)
              then 'change'
            else 'report'
          end,
          p.kind <> 'offline',
          coalesce(p.state, old.state_current), coalesce(p.battery, old.battery),
          coalesce(p.is_charging, old.is_charging), coalesce(p.fw_version, old.fw_version)
        from ${p} join old on old.name = p.device
        where p.kind = 'state' or p.first is not true or (p.kind = 'online') <> old.online)`;
}
