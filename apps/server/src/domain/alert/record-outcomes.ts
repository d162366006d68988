import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { anyOf } from '../command/command-parts.ts';
import { applyMatches } from './apply-matches.ts';
import { groupOfDevice, inScope, nameList } from './scope-sql.ts';
import { viewScopes } from './view-scopes.ts';

/** The event kinds about a device: a failure raises them, the next success of the same thing ends them. */
export type DeviceOutcomeKind = 'command_failed' | 'firmware_failed' | 'provisioning_failed';

/** One outcome on one device: a failure (`failed`) or a success of the thing the kind watches. */
export interface DeviceOutcome {
  device: string;
  kind: DeviceOutcomeKind;
  failed: boolean;
  /** What the alert keeps of the failure (the command, its error, the session's result). */
  detail: Record<string, unknown>;
}

/**
 * Moves the alerts of event-kind rules with outcomes on devices, in one statement: a failure is
 * a condition that begins (or holds again), a success one that ends (applyMatches). Only the last
 * outcome of each device and kind counts. Answers the entities whose alerts changed.
 */
export async function recordDeviceOutcomes(db: Executor, outcomes: DeviceOutcome[], now: Date): Promise<string[]> {
  const last = new Map<string, DeviceOutcome>();
  for (const o of outcomes) {
    const key = `${o.kind}/${o.device}`;
    last.delete(key);
    last.set(key, o);
  }
  if (last.size === 0) return [];
  const views = await viewScopes(db, nameList([...last.values()].map((o) => o.device)), now);
  return applyMatches(
    db,
    sql`select r.id as rule_id, d.name as device, null::uuid as rollout, d.entity, r.start_delay_s,
        r.clear_delay_s, v.failed as hit, v.detail
      from jsonb_to_recordset(${JSON.stringify([...last.values()])}::jsonb)
        as v(device text, kind text, failed boolean, detail jsonb)
      join devices d on d.name = v.device
      join alert_rules r on r.entity = d.entity and r.enabled and r.kind = v.kind
      ${groupOfDevice}
      where ${inScope(views)}`,
    now,
  );
}

/**
 * Provisioning sessions `ids` that ended in this transaction (the caller's, recordSessionEnds):
 * one that failed, ended partly or timed out raises `provisioning_failed` for its device; one that
 * completed ends it. A cancelled session says nothing either way.
 */
export async function recordProvisioningEnds(tx: Executor, ids: readonly string[], now = new Date()): Promise<void> {
  if (ids.length === 0) return;
  const views = await viewScopes(tx, sql`(select device from provision_sessions where id::text = ${anyOf(ids)})`, now);
  await applyMatches(
    tx,
    sql`select r.id as rule_id, d.name as device, null::uuid as rollout, d.entity, r.start_delay_s,
        r.clear_delay_s, p.result <> 'success' as hit,
        jsonb_build_object('session_id', p.id, 'result', p.result, 'error', p.error,
          'completed_files', p.completed_files, 'failed_files', p.failed_files) as detail
      from (select s.*, case
          when s.status = 'provision_completed' then 'success'
          when s.status = 'timeout' then 'timeout'
          when s.status = 'cancelled' then null
          when s.completed_files > 0 then 'partial'
          else 'failed' end as result
        from provision_sessions s where s.id::text = ${anyOf(ids)} and s.ended_at = now()) p
      join devices d on d.name = p.device
      join alert_rules r on r.entity = d.entity and r.enabled and r.kind = 'provisioning_failed'
      ${groupOfDevice}
      where p.result is not null and ${inScope(views)}`,
    now,
  );
}

/**
 * A rollout paused by its error threshold (the rollout engine calls this in the transaction that
 * pauses it): one alert per `rollout_paused` rule of the entity and the rollout, with no device.
 * It ends when the rollout is no longer paused (the alert sweep sees it) or by hand.
 */
export async function recordRolloutPaused(
  tx: Executor,
  rollout: { id: string; entity: string; name: string },
  reason: string | null,
  now = new Date(),
): Promise<void> {
  await applyMatches(
    tx,
    sql`select r.id as rule_id, null::text as device, ${rollout.id}::uuid as rollout, r.entity, r.start_delay_s,
        r.clear_delay_s, true as hit, jsonb_build_object('rollout_name', ${rollout.name}::text, 'reason', ${reason}::text) as detail
      from alert_rules r where r.entity = ${rollout.entity} and r.enabled and r.kind = 'rollout_paused'`,
    now,
    'rollout',
  );
}

/** Open rollout alerts whose rollout is no longer paused (resumed, cancelled, finished): their condition ended. */
export const rolloutsNoLongerPaused = sql`
  select a.rule_id, null::text as device, a.rollout, a.entity, r.start_delay_s, r.clear_delay_s,
    false as hit, a.detail
  from alerts a join alert_rules r on r.id = a.rule_id join rollouts ro on ro.id = a.rollout
  where a.rollout is not null and a.status <> 'cleared' and a.condition_ended_at is null and ro.state <> 'paused'`;
