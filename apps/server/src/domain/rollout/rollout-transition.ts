import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { RolloutAction, RolloutState } from '@fleet/shared/schemas/rollout';
import type { Db, Tx } from '../../db/client.ts';
import { rollouts } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { findRollout, getRollout, type RolloutRow } from './present-rollout.ts';

const WORDS: Record<RolloutAction, string> = {
  start: 'started',
  pause: 'paused',
  resume: 'resumed',
  approve: 'approved',
  cancel: 'cancelled',
  retry: 'retried',
};
const STATE_WORDS: Record<RolloutState, string> = {
  draft: 'a draft',
  running: 'running',
  paused: 'paused',
  awaiting_approval: 'waiting for approval',
  cancelled: 'cancelled',
  finished: 'finished',
};

interface Done {
  name: string;
  state: RolloutState;
  details: Record<string, unknown> | undefined;
}

export interface Transition {
  action: RolloutAction;
  /** The states the action applies in; any other answers 409. */
  from: readonly RolloutState[];
  /** The columns set; the update applies only while the state is still one of `from`. */
  set: (row: RolloutRow) => Partial<Record<keyof RolloutRow, unknown>> | Record<string, SQL | unknown>;
  /** More work in the same transaction, after the update (the start's device set, a retry's new attempts). */
  then?: (tx: Tx, row: RolloutRow) => Promise<Record<string, unknown> | void>;
}

/**
 * One person's action on a rollout: a conditional UPDATE (the state must still be one the action
 * applies in, so two racing calls do not both act), extra work, and its audit entry
 * `rollout.<action>`, in one transaction. A refusal (404, 409) is recorded as a failure.
 */
export async function transition(db: Db, audit: AuditContext, entity: string, id: string, t: Transition) {
  await audited(
    db,
    audit,
    {
      action: `rollout.${t.action}`,
      entity,
      target: { type: 'rollout', name: id },
      complete: (r: Done) => ({
        target: { type: 'rollout', name: r.name },
        after: { state: r.state },
        details: r.details,
      }),
    },
    async (tx) => {
      const row = await findRollout(tx, entity, id);
      const refuse = () =>
        new HttpError(409, `The rollout is ${STATE_WORDS[row.state]}: it cannot be ${WORDS[t.action]}`);
      if (!t.from.includes(row.state)) throw refuse();
      const [updated] = await tx
        .update(rollouts)
        .set({ ...t.set(row), updated_at: sql`now()` } as unknown as Partial<RolloutRow>)
        .where(and(eq(rollouts.id, row.id), inArray(rollouts.state, [...t.from])))
        .returning();
      if (!updated) throw refuse();
      const details = (await t.then?.(tx, updated)) ?? undefined;
      return { name: row.name, state: updated.state, details } as Done;
    },
  );
  return getRollout(db, entity, id);
}
