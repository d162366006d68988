import { sql } from 'drizzle-orm';
import { stageSizes } from '@fleet/shared/schemas/rollout';
import type { Db, Tx } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { dryRunRollout } from './dry-run-rollout.ts';
import type { RolloutRow } from './present-rollout.ts';
import { targetFilter, targetWhere } from './rollout-target.ts';
import { transition } from './rollout-transition.ts';

/**
 * Resolves the target into the rollout's fixed device set (attempt 1): devices already on the
 * version are skipped (no stage); the others, in a random order fixed by the rollout's id, fill
 * the stages in turn.
 */
async function resolveDevices(tx: Tx, row: RolloutRow) {
  const dry = await dryRunRollout(tx, row.entity, row, row);
  if (dry.total === 0)
    throw new HttpError(409, `The target holds no ${row.device_type ?? ''} device`.replace('  ', ' '));
  const where = targetWhere(row.entity, await targetFilter(tx, row.entity, row.target), row.device_type);
  // A file set has no version: nothing is skipped.
  const on = row.version === null ? sql`false` : sql`fw_version is not distinct from ${row.version}`;
  let end = 0;
  const ends = stageSizes(dry.eligible, row.canary, row.percents).map((n) => (end += n));
  const stageOf = sql.join(
    ends.map((e, i) => sql`when pos <= ${e}::int then ${i}::int`),
    sql` `,
  );
  await tx.execute(sql`
    insert into rollout_devices (rollout, device, attempt, stage, position, state)
    select ${row.id}::uuid, name, 1, case when skip then null else case ${stageOf} end end, pos,
      case when skip then 'skipped' else 'waiting' end
    from (
      select name, ${on} as skip,
        row_number() over (partition by ${on} order by md5(${row.id} || name)) as pos
      from devices where ${where}
    ) t`);
  return { total: dry.total, skipped: dry.skipped, stages: dry.stages.map((s) => s.size) };
}

/** `start`: a draft resolves its target and runs (`rollout.start`, with the counts). */
export const startRollout = (db: Db, audit: AuditContext, entity: string, id: string) =>
  transition(db, audit, entity, id, {
    action: 'start',
    from: ['draft'],
    set: () => ({ state: 'running', started_at: sql`now()`, current_stage: 0 }),
    then: resolveDevices,
  });
