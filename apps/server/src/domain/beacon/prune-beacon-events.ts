import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Deletes events and sent-reminder records older than the retention; answers how many events went. */
export async function pruneBeaconEvents(db: Db, retentionDays: number): Promise<number> {
  const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
  const result = await db.execute(sql`delete from beacon_events where timestamp < ${cutoff}`);
  await db.execute(sql`delete from beacon_reminders where sent_at < ${cutoff}`);
  return Number(
    (result as { rowCount?: number | null; affectedRows?: number }).rowCount ??
      (result as { affectedRows?: number }).affectedRows ??
      0,
  );
}
