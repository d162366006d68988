import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * Keeps at most `quota` stored events of the entity: the oldest beyond it are deleted (events
 * sharing the cut's timestamp go too). Answers how many went.
 */
export async function trimBeaconEvents(db: Db, entity: string, quota: number): Promise<number> {
  const result = await db.execute(sql`
    delete from beacon_events where entity = ${entity} and timestamp <= (
      select timestamp from beacon_events where entity = ${entity} order by timestamp desc offset ${quota} limit 1)`);
  return Number((result as { rowCount?: number | null }).rowCount ?? 0);
}
