import { sql } from 'drizzle-orm';
import { MIN_UNRESPONSIVE_MINUTES } from '@fleet/shared/schemas/alert';
import { tryTransactionLock } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { applyMatches } from './apply-matches.ts';
import { evaluateDevices } from './evaluate-devices.ts';
import { rolloutsNoLongerPaused } from './record-outcomes.ts';

/** One sweep at a time across instances (a transaction-scoped advisory lock). */
const SWEEP_LOCK = 0xa1e7_5eed;
/** Silent devices one sweep looks at; the rest wait for the next sweep. */
const SILENT_BATCH = 5_000;

/**
 * The time-based half of alert evaluation, run every ALERT_SWEEP_S by one instance at a time:
 * devices that fell silent (no report comes to say so) are evaluated, rollout alerts whose rollout
 * is no longer paused end, pending alerts whose start
 * delay has passed are raised, and alerts whose condition ended longer ago than their clear delay
 * are cleared. Answers the entities whose alerts changed (empty when another instance swept).
 */
export async function sweepAlerts(db: Db, now: Date): Promise<string[]> {
  const at = now.toISOString();
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    if (!(await tryTransactionLock(tx, SWEEP_LOCK))) return [];
    // Silent past the shortest rule and not yet alerted by an unresponsive rule: the index on
    // updated_at bounds this to the silent devices, not the fleet.
    const silent = rowsOf<{ name: string }>(
      await tx.execute(sql`
        select d.name from devices d
        where d.updated_at <= ${at}::timestamptz - make_interval(mins => ${MIN_UNRESPONSIVE_MINUTES})
          and exists (select 1 from alert_rules r
            where r.entity = d.entity and r.kind = 'unresponsive' and r.enabled)
          and not exists (select 1 from alerts a join alert_rules r on r.id = a.rule_id
            where a.device = d.name and a.status <> 'cleared' and r.kind = 'unresponsive')
        order by d.updated_at limit ${SILENT_BATCH}`),
    ).map((r) => r.name);
    const changed = new Set(await evaluateDevices(tx, silent, now));
    for (const e of await applyMatches(tx, rolloutsNoLongerPaused, now)) changed.add(e);
    const moved = await tx.execute(sql`
      with raised as (
        update alerts a set status = 'active', raised_at = ${at}::timestamptz
        from alert_rules r
        where a.status = 'pending' and r.id = a.rule_id
          and a.condition_since + make_interval(secs => r.start_delay_s) <= ${at}::timestamptz
        returning a.entity),
      cleared as (
        update alerts a set status = 'cleared', cleared_at = ${at}::timestamptz, cleared_by = 'condition'
        from alert_rules r
        where a.condition_ended_at is not null and a.status in ('active', 'acknowledged') and r.id = a.rule_id
          and a.condition_ended_at + make_interval(secs => r.clear_delay_s) <= ${at}::timestamptz
        returning a.entity)
      select distinct entity from (select entity from raised union all select entity from cleared) c`);
    for (const { entity } of rowsOf<{ entity: string }>(moved)) changed.add(entity);
    return [...changed];
  });
}
