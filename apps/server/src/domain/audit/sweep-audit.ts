import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

/**
 * The retention sweep, the only deletion of audit entries: those older than `retentionDays`
 * go, `batch` at a time so no single statement holds the table long. Answers how many went.
 */
export async function sweepAudit(db: Db, retentionDays: number, batch = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with old as (
        select id from audit_entries where at < now() - make_interval(days => ${retentionDays}) limit ${batch}
      )
      delete from audit_entries where id in (select id from old) returning 1 as gone`);
    const n = rowsOf(result).length;
    total += n;
    if (n < batch) return total;
  }
}
