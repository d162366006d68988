import { sql } from 'drizzle-orm';
import type { AlertCounts } from '@fleet/shared/schemas/alert';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

/** The entity's active and acknowledged alerts (the header's figures), from the open-alerts index. */
export async function countAlerts(db: Db, entity: string): Promise<AlertCounts> {
  const [row] = rowsOf<AlertCounts>(
    await db.execute(sql`
      select count(*) filter (where status = 'active')::int as active,
        count(*) filter (where status = 'acknowledged')::int as acknowledged
      from alerts where entity = ${entity} and status in ('active', 'acknowledged')`),
  );
  return row ?? { active: 0, acknowledged: 0 };
}
