import { desc, eq, sql } from 'drizzle-orm';
import { BEACON_ACTIVE_MS, BEACON_STATS_WINDOW_MS } from '@fleet/shared/beacon-constants';
import type { BeaconStats } from '@fleet/shared/schemas/beacon';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Db } from '../../db/client.ts';
import { beaconEvents } from '../../db/schema.ts';
import { presentBeaconEvent } from './present-beacon.ts';

/** Raw SQL answers rows as `{rows}` on both drivers. */

/** The entity's most recent events, newest first, with the stats cards' figures. */
export async function listBeaconEvents(db: Db, entity: string, limit: number) {
  const [rows, stats] = await Promise.all([
    db
      .select()
      .from(beaconEvents)
      .where(eq(beaconEvents.entity, entity))
      .orderBy(desc(beaconEvents.timestamp))
      .limit(limit),
    beaconStats(db, entity),
  ]);
  return { events: rows.map(presentBeaconEvent), stats };
}

/**
 * Events of the last 24 hours, the time of the latest one, and the gateways online: connected to
 * the broker now and heard a beacon within the active-beacon window (docs/decisions.md).
 */
export async function beaconStats(db: Db, entity: string): Promise<BeaconStats> {
  const [row] = rowsOf<{ total: number | string; last: string | Date | null; gateways: number | string }>(
    await db.execute(sql`
      select
        (select count(*) from beacon_events
          where entity = ${entity} and timestamp > now() - make_interval(secs => ${BEACON_STATS_WINDOW_MS / 1000})) as total,
        (select max(timestamp) from beacon_events where entity = ${entity}) as last,
        (select count(*) from beacon_gateways g join devices d on d.name = g.device
          where g.entity = ${entity} and d.online
            and g.last_sighting_at > now() - make_interval(secs => ${BEACON_ACTIVE_MS / 1000})) as gateways`),
  );
  return {
    total_events_24h: Number(row?.total ?? 0),
    gateways_online: Number(row?.gateways ?? 0),
    last_event_at: row?.last ? new Date(row.last).toISOString() : null,
  };
}
