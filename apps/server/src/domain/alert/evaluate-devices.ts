import { sql, type SQL } from 'drizzle-orm';
import { MIN_UNRESPONSIVE_MINUTES } from '@fleet/shared/schemas/alert';
import type { Executor } from '../../db/client.ts';
import { anyOf } from '../command/command-parts.ts';
import { applyMatches, applyMatchesLocked } from './apply-matches.ts';
import { groupOfDevice, inScope, nameList as list } from './scope-sql.ts';
import { viewScopes } from './view-scopes.ts';

/**
 * Whether each enabled rule of the devices' entities that reads a device's row holds for each
 * named device in its scope, as rows (rule, device, hit, what the device shows). Only the named
 * devices are read, by their key (`= any(array(…))`: with `in (select …)` the planner hashed every
 * device of the entity, 190 ms at 30,000): evaluation follows the devices a flush changed, never
 * the whole fleet.
 * `charging_stopped` begins only for the devices in `stopped` (this flush saw them stop
 * charging) and then holds while the device stays off charge below 100 %.
 */
const matches = (names: string[], stopped: string[], now: Date, views: SQL) => sql`
  select r.id as rule_id, d.name as device, null::uuid as rollout, d.entity, r.start_delay_s, r.clear_delay_s,
    coalesce(case r.kind
      when 'unresponsive' then d.updated_at <= ${now.toISOString()}::timestamptz
        - make_interval(mins => greatest(r.threshold, ${MIN_UNRESPONSIVE_MINUTES}))
      when 'battery_low' then d.battery <= r.threshold and d.is_charging is not true
      when 'device_error' then d.state_current in ('ERROR', 'DEFECT')
      when 'charging_stopped' then d.is_charging is false and d.battery < 100 and (d.name in ${list(stopped)}
        or exists (select 1 from alerts a where a.rule_id = r.id and a.device = d.name and a.status <> 'cleared'))
    end, false) as hit,
    jsonb_build_object('battery', d.battery, 'is_charging', d.is_charging, 'state', d.state_current,
      'last_seen', d.updated_at) as detail
  from devices d
  join alert_rules r on r.entity = d.entity and r.enabled
    and r.kind in ('unresponsive', 'battery_low', 'device_error', 'charging_stopped')
  ${groupOfDevice}
  where d.name = ${anyOf(names)} and ${inScope(views)}`;

/**
 * Devices one statement evaluates. Every alert it raises writes its outbox rows in the same
 * statement; on PGlite's one connection everything else waits for it, so a burst goes by in
 * statements of a few milliseconds with a turn for the API between them (turnOfOthers).
 */
export const EVALUATE_CHUNK = 50;

/**
 * Lets the requests that arrived meanwhile queue their queries before the next step of a long
 * piece of background work: the pool serves them first, in order.
 */
export const turnOfOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Moves the alerts of the named devices with what their rules say now (applyMatches),
 * EVALUATE_CHUNK devices a statement. Answers the entities whose alerts changed.
 */
export async function evaluateDevices(
  db: Executor,
  names: string[],
  now: Date,
  stopped: string[] = [],
): Promise<string[]> {
  const changed = new Set<string>();
  // The view-scoped rules of the devices' entities are read once for all the chunks.
  const views = await deviceViews(db, names, now);
  for (let i = 0; i < names.length; i += EVALUATE_CHUNK) {
    if (i > 0) await turnOfOthers();
    const chunk = names.slice(i, i + EVALUATE_CHUNK);
    for (const e of await applyMatches(db, matches(chunk, stopped, now, views), now)) changed.add(e);
  }
  return [...changed];
}

/** The view-scoped rules of the named devices' entities, as SQL for `matches` (viewScopes); none read for no device. */
export const deviceViews = async (db: Executor, names: string[], now: Date): Promise<SQL> =>
  names.length > 0 ? viewScopes(db, list(names), now) : sql`false`;

/**
 * One step of a sweep: the named devices (EVALUATE_CHUNK at most) evaluated in ONE statement that
 * takes `lock` first (applyMatchesLocked); `views` from deviceViews. Answers the entities whose
 * alerts changed, or null when another instance holds the lock.
 */
export const evaluateChunkLocked = (db: Executor, lock: SQL, names: string[], now: Date, views: SQL) =>
  applyMatchesLocked(db, lock, matches(names, [], now, views), now);
