import { eq, sql } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { stageLabels } from '@fleet/shared/schemas/rollout';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { rollouts } from '../../db/schema.ts';
import { SYSTEM_CONTEXT } from '../audit/audit-context.ts';
import { recordAudit } from '../audit/audited.ts';
import type { Awake } from '../command/deliver-held.ts';
import { anyOf } from '../command/command-parts.ts';
import { insertForDevices } from '../command/command-rows.ts';
import type { Deps } from '../deps.ts';
import { firmwareById } from '../dfu/choose-firmware.ts';
import { payloadFor } from '../dfu/send-firmware-update.ts';
import type { RolloutRow } from './present-rollout.ts';

type Tally = { size: number; succeeded: number; failed: number; open: number };
export interface TickResult {
  changed: boolean;
  /** Devices given a held update now, online ones to be delivered after the commit. */
  awake: Awake[];
}

/**
 * Devices in flight whose command ended: succeeded, or failed with the command's error; and
 * the report timeout: a device that took its update and has not answered counts as failed.
 */
async function settle(tx: Tx, row: RolloutRow, now: Date) {
  const ended = rowsOf<{ stage: number; state: string }>(
    await tx.execute(sql`
      update rollout_devices rd set settled_at = now(),
        state = case when c.state = 'succeeded' then 'succeeded' else 'failed' end,
        error = case when c.state = 'succeeded' then null
          when c.state = 'sent' then ${`No report within ${row.report_timeout_s} s`}
          else coalesce(c.error, c.state) end
      from commands c
      where rd.rollout = ${row.id} and rd.state = 'in_flight' and not rd.superseded
        and c.id = rd.command_id and c.device = rd.device
        and (c.state in ('succeeded', 'failed', 'timed_out', 'expired')
          or (c.state = 'sent' and c.sent_at < ${now.toISOString()}::timestamptz - make_interval(secs => ${row.report_timeout_s})))
      returning rd.stage, rd.state`),
  );
  return ended;
}

/** Per stage: its size, succeeded (skipped count as on the version), failed, and not yet settled. */
async function tally(tx: Tx, row: RolloutRow): Promise<Tally[]> {
  const stages = stageLabels(row.canary, row.percents).map(() => ({ size: 0, succeeded: 0, failed: 0, open: 0 }));
  const counted = rowsOf<{ stage: number; state: string; n: string }>(
    await tx.execute(sql`
      select stage, state, count(*) as n from rollout_devices
      where rollout = ${row.id} and not superseded and stage is not null group by stage, state`),
  );
  for (const c of counted) {
    const t = stages[c.stage]!;
    const n = Number(c.n);
    t.size += n;
    if (c.state === 'succeeded' || c.state === 'skipped') t.succeeded += n;
    else if (c.state === 'failed') t.failed += n;
    else t.open += n;
  }
  return stages;
}

const pct = (n: number, of: number) => (of === 0 ? 100 : Math.floor((n * 100) / of));

/** What the rollout does next after this tick's settlements: its new state, stage and reason. */
function decide(row: RolloutRow, stages: Tally[], failedStages: Set<number>, settledNow: boolean) {
  const labels = stageLabels(row.canary, row.percents);
  for (const i of [...failedStages].sort()) {
    const t = stages[i]!;
    if (pct(t.failed, t.size) > row.error_threshold_pct) {
      return {
        state: 'paused' as const,
        reason: `Stage ${labels[i]}: ${t.failed} of ${t.size} devices failed (${pct(t.failed, t.size)} %), over the error threshold of ${row.error_threshold_pct} %`,
      };
    }
  }
  const cur = row.current_stage;
  const t = stages[cur]!;
  const met = pct(t.succeeded, t.size) >= row.success_threshold_pct;
  const ended = stages.slice(0, cur + 1).every((s) => s.open === 0);
  if (!met && !ended) return null;
  if (!met && settledNow) {
    return {
      state: 'paused' as const,
      reason: `Stage ${labels[cur]} ended with ${t.succeeded} of ${t.size} devices updated (${pct(t.succeeded, t.size)} %), under the success threshold of ${row.success_threshold_pct} %`,
    };
  }
  if (cur === stages.length - 1) return stages.every((s) => s.open === 0) ? { state: 'finished' as const } : null;
  if (row.approval) return { state: 'awaiting_approval' as const };
  return { state: 'running' as const, stage: cur + 1 };
}

/** Claims the next waiting devices (up to the room in flight) and writes their commands, held. */
async function claim(deps: Deps, tx: Tx, row: RolloutRow): Promise<{ claimed: number; awake: Awake[] }> {
  await tx.execute(sql`
    update rollout_devices rd set state = 'skipped', settled_at = now()
    from devices d
    where rd.rollout = ${row.id} and rd.state = 'waiting' and not rd.superseded and rd.stage <= ${row.current_stage}
      and d.name = rd.device and d.fw_version = ${row.version}`);
  const claimed = rowsOf<{ device: string }>(
    await tx.execute(sql`
      with room as (
        select greatest(0, ${row.max_in_flight} - count(*)) as n from rollout_devices
        where rollout = ${row.id} and state = 'in_flight' and not superseded),
      next as (
        select device, attempt from rollout_devices
        where rollout = ${row.id} and state = 'waiting' and not superseded and stage <= ${row.current_stage}
        order by stage, position limit (select n from room))
      update rollout_devices rd set state = 'in_flight', claimed_at = now()
      from next where rd.rollout = ${row.id} and rd.device = next.device and rd.attempt = next.attempt
        and rd.state = 'waiting'
      returning rd.device`),
  );
  if (claimed.length === 0) return { claimed: 0, awake: [] };
  const names = claimed.map((c) => c.device);
  const fw = await firmwareById(tx, row.entity, row.firmware_id ?? '00000000-0000-0000-0000-000000000000');
  const payload = payloadFor(deps, fw, row.hold_s, row.download_base);
  const actor = { sub: row.created_by } as AccessClaims;
  const rows = await insertForDevices(tx, actor, 'devices', { payload, expires_in_s: row.hold_s }, row.entity, names);
  const ids = rows.map((r) => r.id);
  // Written held: the delivery after the commit (or the command sweep) claims each exactly once.
  await tx.execute(sql`update commands set state = 'queued', sent_at = null where id::text = ${anyOf(ids)}`);
  await tx.execute(sql`
    update rollout_devices rd set command_id = c.id
    from commands c where rd.rollout = ${row.id} and rd.state = 'in_flight' and rd.command_id is null
      and c.id::text = ${anyOf(ids)} and c.device = rd.device`);
  const awake = rows.filter((r) => r.state === 'sent').map((r) => ({ name: r.device, entity: r.entity }));
  return { claimed: claimed.length, awake };
}

/**
 * One step of one rollout, inside the caller's transaction (which holds the rollout's lock):
 * settles devices whose command ended or timed out, pauses on the error threshold, advances,
 * asks for approval or finishes on the success threshold, and while running claims the next
 * devices. `now` is the clock the report timeout is measured with.
 */
export async function tickRollout(deps: Deps, tx: Tx, row: RolloutRow, now: Date): Promise<TickResult> {
  const ended = await settle(tx, row, now);
  const failedStages = new Set(ended.filter((e) => e.state === 'failed').map((e) => e.stage));
  let changed = ended.length > 0;
  if (row.state !== 'running') return { changed, awake: [] };
  const next = decide(row, await tally(tx, row), failedStages, ended.length > 0);
  let current = row;
  if (next) {
    const stage = 'stage' in next ? next.stage : row.current_stage;
    const reason = 'reason' in next ? next.reason : null;
    const [updated] = await tx
      .update(rollouts)
      .set({
        state: next.state,
        current_stage: stage,
        pause_reason: reason,
        updated_at: sql`now()`,
        ...(next.state === 'finished' && { finished_at: sql`now()` }),
      })
      .where(eq(rollouts.id, row.id))
      .returning();
    current = updated!;
    changed = true;
    if (next.state === 'paused' || next.state === 'finished') {
      await recordAudit(tx, SYSTEM_CONTEXT, {
        action: next.state === 'paused' ? 'rollout.pause' : 'rollout.finish',
        entity: row.entity,
        target: { type: 'rollout', name: row.name },
        after: { state: next.state },
        ...(reason && { reason, details: { id: row.id } }),
      });
    }
  }
  if (current.state !== 'running') return { changed, awake: [] };
  const { claimed, awake } = await claim(deps, tx, current);
  return { changed: changed || claimed > 0, awake };
}
