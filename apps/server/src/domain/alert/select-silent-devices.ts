import { sql, type SQL } from 'drizzle-orm';
import { MIN_UNRESPONSIVE_MINUTES } from '@fleet/shared/schemas/alert';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { turnOfOthers } from './evaluate-devices.ts';

/**
 * Silent devices one statement walks: the selection as one statement probed every silent device's
 * open alerts, 112–607 ms of PGlite's one connection once a sweep (bench/notes/alerts-burst.md).
 */
export const WALK_CHUNK = 1_000;

interface Walked {
  ok: boolean;
  walked: number;
  /** The last device walked, as (updated_at as text, name): where the next statement starts. */
  last: [string, string] | null;
  due: { name: string; entity: string }[] | null;
}

/** One statement of the walk: takes `lock` first, then WALK_CHUNK silent devices after `after`. */
const walk = (lock: SQL, at: string, after: [string, string] | null) => sql`
  with lock as (select ${lock} as ok),
  walked as (
    select d.name, d.entity, d.updated_at from devices d
    where (select ok from lock)
      and d.updated_at <= ${at}::timestamptz - make_interval(mins => ${MIN_UNRESPONSIVE_MINUTES})
      ${after ? sql`and (d.updated_at, d.name) > (${after[0]}::timestamptz, ${after[1]})` : sql``}
    order by d.updated_at, d.name limit ${WALK_CHUNK})
  select (select ok from lock) as ok, (select count(*) from walked)::int as walked,
    (select array[w.updated_at::text, w.name] from walked w order by w.updated_at desc, w.name desc limit 1) as last,
    (select jsonb_agg(jsonb_build_object('name', w.name, 'entity', w.entity) order by w.updated_at, w.name)
      from walked w
      where exists (select 1 from alert_rules r
          where r.entity = w.entity and r.kind = 'unresponsive' and r.enabled)
        -- A probe by the device's index for each device walked: as a NOT EXISTS the planner hashed
        -- every open alert of the rule for each statement (10,000 in a burst, 200 ms).
        and (select 1 from alerts a join alert_rules r on r.id = a.rule_id
          where a.device = w.name and a.status <> 'cleared' and r.kind = 'unresponsive' limit 1) is null) as due`;

/**
 * Up to `max` devices silent past the shortest unresponsive rule at `at`, of entities with an
 * enabled unresponsive rule and not yet alerted by one, longest silent first: the devices' index
 * on (updated_at, name) walked WALK_CHUNK devices a statement, each statement taking `lock` (a
 * `pg_try_…_xact_lock(…)` call) first, with a turn for everyone else between them. Answers null
 * when another instance holds the lock.
 */
export async function selectSilentDevices(
  db: Executor,
  lock: SQL,
  at: string,
  max: number,
): Promise<{ name: string; entity: string }[] | null> {
  const found: { name: string; entity: string }[] = [];
  let after: [string, string] | null = null;
  for (;;) {
    const row: Walked | undefined = rowsOf<Walked>(await db.execute(walk(lock, at, after)))[0];
    if (row?.ok !== true) return null;
    found.push(...(row.due ?? []));
    await turnOfOthers();
    if (row.walked < WALK_CHUNK || row.last === null || found.length >= max) return found.slice(0, max);
    after = row.last;
  }
}
