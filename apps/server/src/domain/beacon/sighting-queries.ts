// The sighting batcher's statements: gateways touched, events stored, reminder records made,
// read and confirmed. Each takes a flush's rows at once as one record set (db/raw-sql.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordset, rowsOf } from '../../db/raw-sql.ts';
import { beaconEvents, beaconGateways, beaconReminders } from '../../db/schema.ts';
import type { EventInput, ReminderRow } from './event-rules.ts';

/** A due dose's reminder record, as the table keys it. */
export interface ReminderKey {
  config_id: string;
  due_date: string;
  due_time: string;
}

/** Records gateways still registered in their entity, each with its latest sighting time (never moved back). */
export async function touchGateways(
  db: Db,
  latest: Array<{ device: string; entity: string; at: string }>,
): Promise<void> {
  const list = latest.sort((a, b) => (a.device < b.device ? -1 : 1));
  const v = recordset(list, { table: beaconGateways, columns: ['device', 'entity'], extra: { at: 'timestamptz' } });
  await db.execute(sql`
    insert into beacon_gateways (device, entity, last_sighting_at)
    select v.device, d.entity, v.at from ${v}
    join devices d on d.name = v.device and d.entity = v.entity
    on conflict (device) do update set entity = excluded.entity,
      last_sighting_at = greatest(beacon_gateways.last_sighting_at, excluded.last_sighting_at)`);
}

const EVENT_COLUMNS = [
  'id',
  'entity',
  'event_type',
  'beacon_mac',
  'patient',
  'room',
  'rssi',
  'gateway',
  'medications',
  'message_sent',
  'timestamp',
] as const;

/** Stores events of entities that still exist; answers the ids stored. */
export async function insertEvents(db: Db, events: EventInput[]): Promise<Set<string>> {
  const v = recordset(events, { table: beaconEvents, columns: EVENT_COLUMNS });
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into beacon_events (id, entity, event_type, beacon_mac, patient, room, rssi, gateway, medications,
        message_sent, timestamp)
      select v.id, v.entity, v.event_type, v.beacon_mac, v.patient, v.room, v.rssi, v.gateway, v.medications,
        v.message_sent, v.timestamp
      from ${v}
      where exists (select 1 from entities e where e.name = v.entity)
      returning id::text`),
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Makes the reminder records of doses of configurations that still exist, in key order; the
 * primary key lets exactly one instance and one sighting win a dose. Answers the keys this call made.
 */
export async function insertReminders(db: Db, list: Array<ReminderKey & { gateway: string }>): Promise<ReminderKey[]> {
  const v = recordset(list, { table: beaconReminders, columns: ['config_id', 'due_date', 'due_time', 'gateway'] });
  return rowsOf<ReminderKey>(
    await db.execute(sql`
      insert into beacon_reminders (config_id, due_date, due_time, gateway)
      select v.config_id, v.due_date, v.due_time, v.gateway
      from ${v}
      where exists (select 1 from beacon_configs c where c.id = v.config_id)
      order by v.config_id, v.due_date, v.due_time
      on conflict do nothing
      returning config_id, due_date, due_time`),
  );
}

const keySet = (keys: ReminderKey[]) =>
  recordset(keys, { table: beaconReminders, columns: ['config_id', 'due_date', 'due_time'] });

/** The reminder records of `keys` that exist. */
export async function readReminders(db: Db, keys: ReminderKey[]): Promise<Array<Omit<ReminderRow, 'fresh'>>> {
  return rowsOf<Omit<ReminderRow, 'fresh'>>(
    await db.execute(sql`
      select r.config_id, r.due_date, r.due_time, r.gateway, r.sent_at, r.confirmed_at
      from beacon_reminders r join ${keySet(keys)}
        on r.config_id = v.config_id and r.due_date = v.due_date and r.due_time = v.due_time`),
  );
}

/** Marks the visits of `keys` confirmed; answers those this call confirmed (each once, on one instance). */
export async function confirmReminders(db: Db, keys: ReminderKey[]): Promise<ReminderKey[]> {
  return rowsOf<ReminderKey>(
    await db.execute(sql`
      update beacon_reminders r set confirmed_at = now()
      from ${keySet(keys)}
      where r.config_id = v.config_id and r.due_date = v.due_date and r.due_time = v.due_time
        and r.confirmed_at is null
      returning r.config_id, r.due_date, r.due_time`),
  );
}
