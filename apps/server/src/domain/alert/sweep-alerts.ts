import { sql } from 'drizzle-orm';
import { MIN_UNRESPONSIVE_MINUTES } from '@fleet/shared/schemas/alert';
import { tryLockSql, tryTransactionLock } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { applyMatchesLocked } from './apply-matches.ts';
import { deviceViews, EVALUATE_CHUNK, evaluateChunkLocked, turnOfOthers } from './evaluate-devices.ts';
import { rolloutsNoLongerPaused } from './record-outcomes.ts';

/** One sweep at a time across instances (a transaction-scoped advisory lock, taken by each step). */
const SWEEP_LOCK = 0xa1e7_5eed;
/** The same lock, taken by a one-statement step. */
const LOCK = tryLockSql(SWEEP_LOCK);
/** Silent devices one sweep looks at; the rest wait for the next sweep. */
const SILENT_BATCH = 5_000;
/** Alerts a sweep moved (about) past which it refreshes the table's statistics. */
const ANALYZE_AFTER = 1_000;

/**
 * The time-based half of alert evaluation, run every ALERT_SWEEP_S by one instance at a time:
 * devices that fell silent (no report comes to say so) are evaluated, rollout alerts whose rollout
 * is no longer paused end, pending alerts whose start delay has passed are raised, and alerts
 * whose condition ended longer ago than their clear delay are cleared. Answers the entities whose
 * alerts changed (empty when another instance swept).
 *
 * The work is done in short steps of at most EVALUATE_CHUNK alerts, each under the sweep's lock
 * (the silent devices' steps one statement taking it, the others a short transaction), with a
 * turn for everyone else between them: on PGlite's one connection a sweep raising 5,000 alerts in
 * one transaction held every API request for seconds. A step that finds the lock taken ends the
 * sweep (another instance is sweeping); every step is safe to repeat.
 */
export async function sweepAlerts(db: Db, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const changed = new Set<string>();
  /** One step under the lock; false when another instance holds it. */
  const step = async (work: (tx: Db) => Promise<string[]>): Promise<boolean> => {
    const entities = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      return (await tryTransactionLock(tx, SWEEP_LOCK)) ? work(tx) : null;
    });
    for (const e of entities ?? []) changed.add(e);
    await turnOfOthers();
    return entities !== null;
  };
  // Silent past the shortest rule and not yet alerted by an unresponsive rule: the index on
  // updated_at bounds this to the silent devices, not the fleet.
  let silent: string[] = [];
  const selected = await step(async (tx) => {
    silent = rowsOf<{ name: string }>(
      await tx.execute(sql`
        select d.name from devices d
        where d.updated_at <= ${at}::timestamptz - make_interval(mins => ${MIN_UNRESPONSIVE_MINUTES})
          and exists (select 1 from alert_rules r
            where r.entity = d.entity and r.kind = 'unresponsive' and r.enabled)
          and not exists (select 1 from alerts a join alert_rules r on r.id = a.rule_id
            where a.device = d.name and a.status <> 'cleared' and r.kind = 'unresponsive')
        order by d.updated_at limit ${SILENT_BATCH}`),
    ).map((r) => r.name);
    return [];
  });
  if (!selected) return [];
  // The silent devices and the rollouts no longer paused are moved by one-statement steps, each
  // taking the lock itself (applyMatchesLocked): a step is one round trip, not four.
  const locked = async (entities: string[] | null): Promise<boolean> => {
    for (const e of entities ?? []) changed.add(e);
    await turnOfOthers();
    return entities !== null;
  };
  const views = await deviceViews(db, silent, now);
  for (let i = 0; i < silent.length; i += EVALUATE_CHUNK) {
    const chunk = silent.slice(i, i + EVALUATE_CHUNK);
    if (!(await locked(await evaluateChunkLocked(db, LOCK, chunk, now, views)))) return [...changed];
  }
  if (!(await locked(await applyMatchesLocked(db, LOCK, rolloutsNoLongerPaused, now, 'rollout')))) return [...changed];
  // Pending alerts past their start delay, then open ones past their clear delay: a chunk a step
  // until a step moves fewer than a chunk.
  let touched = silent.length;
  for (const move of [raiseDue, clearDue]) {
    let moved = EVALUATE_CHUNK;
    while (moved === EVALUATE_CHUNK) {
      const ok = await step(async (tx) => {
        const rows = rowsOf<{ entity: string }>(await tx.execute(move(at)));
        moved = rows.length;
        return rows.map((r) => r.entity);
      });
      if (!ok) return [...changed];
      touched += moved;
    }
  }
  // PGlite runs no autovacuum, so nothing else updates the planner's idea of the alerts table: after
  // a burst it would go on sorting every alert of an entity for a page of the list.
  if (touched >= ANALYZE_AFTER) await db.execute(sql`analyze alerts`);
  return [...changed];
}

/** Up to EVALUATE_CHUNK pending alerts whose start delay has passed become active (one row each). */
const raiseDue = (at: string) => sql`
  update alerts a set status = 'active', raised_at = ${at}::timestamptz
  where a.id in (select p.id from alerts p join alert_rules r on r.id = p.rule_id
    where p.status = 'pending' and p.condition_since + make_interval(secs => r.start_delay_s) <= ${at}::timestamptz
    limit ${EVALUATE_CHUNK} for update of p skip locked)
    and a.status = 'pending'
  returning a.entity`;

/** Up to EVALUATE_CHUNK open alerts whose condition ended longer ago than their clear delay are cleared. */
const clearDue = (at: string) => sql`
  update alerts a set status = 'cleared', cleared_at = ${at}::timestamptz, cleared_by = 'condition'
  where a.id in (select o.id from alerts o join alert_rules r on r.id = o.rule_id
    where o.condition_ended_at is not null and o.status in ('active', 'acknowledged')
      and o.condition_ended_at + make_interval(secs => r.clear_delay_s) <= ${at}::timestamptz
    limit ${EVALUATE_CHUNK} for update of o skip locked)
    and a.status in ('active', 'acknowledged')
  returning a.entity`;
