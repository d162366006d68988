import { count, sql } from 'drizzle-orm';
import { stageLabels, stageSizes, type RolloutDryRun, type RolloutTarget } from '@fleet/shared/schemas/rollout';
import type { Executor } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import { targetFilter, targetWhere } from './rollout-target.ts';

export interface DryRunInput {
  target: RolloutTarget;
  canary: number;
  percents: number[];
}

/** What a rollout delivers: a firmware's version and type, or (both null) each device's file set. */
export interface Delivered {
  version: string | null;
  device_type: 'CC1' | 'CC2' | null;
}

/**
 * What a rollout would reach if it started now: the target's devices (of the firmware's type),
 * those already on the version (skipped; none for a file set), and each stage's size over the rest.
 * `status` answers a missing saved view (400 before a rollout exists, 409 when it starts).
 */
export async function dryRunRollout(
  db: Executor,
  entity: string,
  fw: Delivered,
  input: DryRunInput,
  status = 409,
): Promise<RolloutDryRun> {
  const filter = await targetFilter(db, entity, input.target, status);
  const [row] = await db
    .select({
      total: count(),
      skipped: sql<number>`count(*) filter (where ${devices.fw_version} = ${fw.version})`.mapWith(Number),
    })
    .from(devices)
    .where(targetWhere(entity, filter, fw.device_type));
  const total = row?.total ?? 0;
  const skipped = row?.skipped ?? 0;
  const eligible = total - skipped;
  const labels = stageLabels(input.canary, input.percents);
  const sizes = stageSizes(eligible, input.canary, input.percents);
  return { total, skipped, eligible, stages: labels.map((label, i) => ({ label, size: sizes[i]! })) };
}
