import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { RolloutRow } from './present-rollout.ts';
import { transition } from './rollout-transition.ts';

/**
 * A retry's new attempts: each failed device's current row is superseded by a waiting row of
 * the next attempt (the unique rollout+device+attempt keeps a second retry from adding another).
 */
async function nextAttempts(tx: Tx, row: RolloutRow) {
  const added = rowsOf<{ device: string }>(
    await tx.execute(sql`
      with failed as (
        update rollout_devices set superseded = true
        where rollout = ${row.id} and state = 'failed' and not superseded
        returning device, attempt, stage, position)
      insert into rollout_devices (rollout, device, attempt, stage, position, state)
      select ${row.id}::uuid, device, attempt + 1, stage, position, 'waiting' from failed
      returning device`),
  );
  if (added.length === 0) throw new HttpError(409, 'The rollout has no failed device to retry');
  return { count: added.length, names: added.map((a) => a.device) };
}

/** `retry`: the failed devices are sent the update again; the rollout runs (its pause reason cleared). */
export const retryRollout = (db: Db, audit: AuditContext, entity: string, id: string) =>
  transition(db, audit, entity, id, {
    action: 'retry',
    from: ['paused', 'finished', 'running', 'awaiting_approval'],
    set: (row) => ({
      state: row.state === 'awaiting_approval' ? 'awaiting_approval' : 'running',
      pause_reason: null,
      finished_at: null,
      // The retried devices are watched by a soak of their own.
      soak_until: null,
      attempt: sql`attempt + 1`,
    }),
    then: nextAttempts,
  });
