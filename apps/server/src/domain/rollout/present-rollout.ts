import { and, eq, inArray, sql } from 'drizzle-orm';
import { stageLabels, type Rollout, type RolloutStage } from '@fleet/shared/schemas/rollout';
import type { Executor } from '../../db/client.ts';
import { rolloutDevices, rollouts } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';

export type RolloutRow = typeof rollouts.$inferSelect;
type Counts = Pick<RolloutStage, 'succeeded' | 'failed' | 'in_flight' | 'waiting' | 'skipped'>;

const zero = (): Counts => ({ succeeded: 0, failed: 0, in_flight: 0, waiting: 0, skipped: 0 });

/** The rollout of the entity by id; another entity's (or a malformed id) is 404. */
export async function findRollout(db: Executor, entity: string, id: string): Promise<RolloutRow> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const [row] = uuid
    ? await db
        .select()
        .from(rollouts)
        .where(and(eq(rollouts.entity, entity), eq(rollouts.id, id)))
    : [];
  if (!row) throw notFound('Rollout');
  return row;
}

/** Each rollout's device counts by stage and state (current attempts only). */
export async function stageCounts(db: Executor, ids: string[]) {
  if (ids.length === 0) return new Map<string, Array<{ stage: number | null; state: keyof Counts; n: number }>>();
  const rows = await db
    .select({
      rollout: rolloutDevices.rollout,
      stage: rolloutDevices.stage,
      state: rolloutDevices.state,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(rolloutDevices)
    .where(and(inArray(rolloutDevices.rollout, ids), eq(rolloutDevices.superseded, false)))
    .groupBy(rolloutDevices.rollout, rolloutDevices.stage, rolloutDevices.state);
  const by = new Map<string, Array<{ stage: number | null; state: keyof Counts; n: number }>>();
  for (const r of rows) by.set(r.rollout, [...(by.get(r.rollout) ?? []), r]);
  return by;
}

/**
 * A rollout as the API shows it: its settings, state, and the counts overall and per stage. A
 * draft's stages are empty until it starts (the dry run tells their sizes before).
 */
export function presentRollout(
  row: RolloutRow,
  counted: Array<{ stage: number | null; state: keyof Counts; n: number }>,
): Rollout {
  const labels = stageLabels(row.canary, row.percents);
  const stages: RolloutStage[] = labels.map((label, index) => ({ index, label, size: 0, ...zero() }));
  const all = { total: 0, ...zero() };
  for (const c of counted) {
    all.total += c.n;
    all[c.state] += c.n;
    const stage = c.stage === null ? undefined : stages[c.stage];
    if (stage) {
      stage.size += c.n;
      stage[c.state] += c.n;
    }
  }
  return {
    id: row.id,
    entity: row.entity,
    name: row.name,
    delivery: row.delivery,
    firmware_id: row.firmware_id,
    version: row.version,
    device_type: row.device_type,
    target: row.target,
    canary: row.canary,
    percents: row.percents,
    success_threshold_pct: row.success_threshold_pct,
    error_threshold_pct: row.error_threshold_pct,
    report_timeout_s: row.report_timeout_s,
    hold_s: row.hold_s,
    max_in_flight: row.max_in_flight,
    approval: row.approval,
    soak_s: row.soak_s,
    window: row.send_window,
    jitter_s: row.jitter_s,
    soak_until: row.soak_until?.toISOString() ?? null,
    state: row.state,
    current_stage: row.current_stage,
    attempt: row.attempt,
    pause_reason: row.pause_reason,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    counts: all,
    stages,
  };
}

/** One rollout, presented. */
export async function getRollout(db: Executor, entity: string, id: string): Promise<Rollout> {
  const row = await findRollout(db, entity, id);
  return presentRollout(row, (await stageCounts(db, [row.id])).get(row.id) ?? []);
}
