import { count, sql } from 'drizzle-orm';
import { stageLabels, stageSizes, type RolloutDryRun, type RolloutTarget } from '@fleet/shared/schemas/rollout';
import type { Executor } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import { targetWhere } from './rollout-target.ts';

export interface DryRunInput {
  target: RolloutTarget;
  canary: number;
  percents: number[];
}

/**
 * What a rollout would reach if it started now: the target's devices of the type, those already
 * on the version (skipped), and each stage's size over the rest.
 */
export async function dryRunRollout(
  db: Executor,
  entity: string,
  fw: { version: string; device_type: string },
  input: DryRunInput,
): Promise<RolloutDryRun> {
  const [row] = await db
    .select({
      total: count(),
      skipped: sql<number>`count(*) filter (where ${devices.fw_version} = ${fw.version})`.mapWith(Number),
    })
    .from(devices)
    .where(targetWhere(entity, input.target, fw.device_type));
  const total = row?.total ?? 0;
  const skipped = row?.skipped ?? 0;
  const eligible = total - skipped;
  const labels = stageLabels(input.canary, input.percents);
  const sizes = stageSizes(eligible, input.canary, input.percents);
  return { total, skipped, eligible, stages: labels.map((label, i) => ({ label, size: sizes[i]! })) };
}
