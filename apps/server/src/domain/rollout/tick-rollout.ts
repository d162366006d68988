import { eq, sql } from 'drizzle-orm';
import { stageLabels } from '@fleet/shared/schemas/rollout';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { rollouts } from '../../db/schema.ts';
import { recordRolloutPaused } from '../alert/record-outcomes.ts';
import { SYSTEM_CONTEXT } from '../audit/audit-context.ts';
import { recordAudit } from '../audit/audited.ts';
import type { Awake } from '../command/deliver-held.ts';
import type { Deps } from '../deps.ts';
import type { RolloutRow } from './present-rollout.ts';
import { inWindow } from './rollout-window.ts';
import { SEND_BATCH, claim, sendDue, type ToProvision } from './send-rollout.ts';
import { settle, soakFailures, type Named } from './settle-rollout.ts';

type Tally = { size: number; succeeded: number; failed: number; open: number; waiting: number };
export interface TickResult {
  changed: boolean;
  /** Devices given a held update now, online ones to be delivered after the commit. */
  awake: Awake[];
  /** Devices whose provisioning session starts after the commit (a file-set rollout). */
  provision: ToProvision[];
  /** A full batch was sent: more may be due, so the engine steps again at once. */
  more?: boolean;
}

const NOTHING = { awake: [], provision: [] };

/**
 * The soak gate before a stage is left (advance, approval or finish): the first time, the soak
 * begins (`soak_until`); until it ends, the stage stays; after, it is left and the soak cleared.
 * Answers null to stay, else the fields to set with the move.
 */
function soakGate(row: RolloutRow, now: Date): { soak_until: Date | null } | 'begin' | null {
  if (row.soak_s === 0) return { soak_until: null };
  if (row.soak_until === null) return 'begin';
  return now >= row.soak_until ? { soak_until: null } : null;
}

/**
 * Per stage up to the next one (the later stages, never claimed, can change no decision): its
 * size, succeeded (skipped count as on the version), failed, not yet settled, and of those not yet
 * claimed.
 */
async function tally(tx: Tx, row: RolloutRow): Promise<Tally[]> {
  const stages = stageLabels(row.canary, row.percents).map(() => ({
    size: 0,
    succeeded: 0,
    failed: 0,
    open: 0,
    waiting: 0,
  }));
  const counted = rowsOf<{ stage: number; state: string; n: string }>(
    await tx.execute(sql`
      select stage, state, count(*) as n from rollout_devices
      where rollout = ${row.id} and not superseded and stage is not null and stage <= ${row.current_stage + 1}
      group by stage, state`),
  );
  for (const c of counted) {
    const t = stages[c.stage]!;
    const n = Number(c.n);
    t.size += n;
    if (c.state === 'succeeded' || c.state === 'skipped') t.succeeded += n;
    else if (c.state === 'failed') t.failed += n;
    else t.open += n;
    if (c.state === 'waiting') t.waiting += n;
  }
  return stages;
}

/**
 * The last device not yet settled (by stage and position) of the stages open so far, found through
 * `rollout_devices_open_idx` without counting: devices are claimed in that order, so a waiting one
 * of the current stage, if any, is last.
 */
async function lastOpen(tx: Tx, row: RolloutRow): Promise<{ stage: number; state: string } | undefined> {
  const [last] = rowsOf<{ stage: number; state: string }>(
    await tx.execute(sql`
      select stage, state from rollout_devices
      where rollout = ${row.id} and state in ('waiting', 'in_flight') and not superseded
        and stage <= ${row.current_stage}
      order by stage desc, position desc limit 1`),
  );
  return last;
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

/**
 * One step of one rollout, inside the caller's transaction (which holds the rollout's lock):
 * settles devices whose command ended or timed out, pauses on the error threshold, advances,
 * asks for approval or finishes on the success threshold (each after the stage's soak), and while
 * running and inside its window claims the next devices and sends those whose jitter has passed.
 * `now` is the clock the report timeout, soak, window and jitter are measured with; `named`: the
 * commands settled since the last step, the only devices settled (null: all in flight).
 */
export async function tickRollout(
  deps: Deps,
  tx: Tx,
  row: RolloutRow,
  now: Date,
  named: Named[] | null = null,
): Promise<TickResult> {
  const ended = await settle(tx, row, now, named);
  // A step after replies that ended none of this rollout's steps (or the next part of a full one)
  // changes nothing but what is claimed and sent: no tally (the timer's step does the rest); it
  // claims the next part when the last open device waits.
  if (named !== null && ended.length === 0) {
    if (row.state !== 'running' || !inWindow(row.send_window, now)) return { changed: false, ...NOTHING };
    return send(deps, tx, row, now, false, (await lastOpen(tx, row))?.state === 'waiting');
  }
  const soaked = row.state === 'running' ? await soakFailures(tx, row, now) : [];
  const failedStages = new Set([...ended, ...soaked].filter((e) => e.state === 'failed').map((e) => e.stage));
  let changed = ended.length + soaked.length > 0;
  if (row.state !== 'running') return { changed, ...NOTHING };
  // After replies that ended devices, none failed, at a threshold of 100 %: while the current stage
  // still has a device open nothing can be decided, so the tally is skipped (bench/notes/rollout-bench.md,
  // 2026-11-29 s22e). A device waiting behind the last open one (a retry's) is claimed by the timer's step.
  if (named !== null && failedStages.size === 0 && row.success_threshold_pct === 100 && row.soak_until === null) {
    const last = await lastOpen(tx, row);
    if (last?.stage === row.current_stage) {
      if (!inWindow(row.send_window, now)) return { changed, ...NOTHING };
      return send(deps, tx, row, now, changed, last.state === 'waiting');
    }
  }
  const stages = await tally(tx, row);
  let next = decide(row, stages, failedStages, ended.length > 0);
  let current = row;
  const gate = next && next.state !== 'paused' ? soakGate(row, now) : { soak_until: undefined };
  if (gate === 'begin') {
    const until = new Date(now.getTime() + row.soak_s * 1000);
    const [updated] = await tx
      .update(rollouts)
      .set({ soak_until: until, updated_at: sql`now()` })
      .where(eq(rollouts.id, row.id))
      .returning();
    current = updated!;
    changed = true;
    next = null;
  } else if (gate === null) next = null;
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
        ...(gate && gate !== 'begin' && gate.soak_until !== undefined && { soak_until: gate.soak_until }),
        ...(next.state === 'finished' && { finished_at: sql`now()` }),
      })
      .where(eq(rollouts.id, row.id))
      .returning();
    current = updated!;
    changed = true;
    if (next.state === 'paused') await recordRolloutPaused(tx, row, reason ?? null);
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
  // Outside its window nothing new is sent; devices in flight finish.
  if (current.state !== 'running' || !inWindow(current.send_window, now)) return { changed, ...NOTHING };
  // Nothing waits in the stages open so far: no claim (it scanned every device in flight).
  const waiting = stages.slice(0, current.current_stage + 1).some((t) => t.waiting > 0);
  return send(deps, tx, current, now, changed, waiting);
}

/**
 * Claims the next part when devices wait (claim), then sends what is due (sendDue); a whole part
 * claimed or a full batch sent asks for another step at once.
 */
async function send(deps: Deps, tx: Tx, row: RolloutRow, now: Date, changed: boolean, waiting: boolean) {
  const claimed = waiting ? await claim(tx, row, now) : 0;
  const { sent, awake, provision } = await sendDue(deps, tx, row, now);
  const more = claimed >= SEND_BATCH || sent >= SEND_BATCH;
  return { changed: changed || claimed > 0 || sent > 0, awake, provision, more } satisfies TickResult;
}
