import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceSelectionMembers, deviceSelections } from '../../db/schema.ts';
import { SELECTION_BATCH, SELECTION_LEASE_MS, type SelectionRow } from './selection-scope.ts';

export type Member = { device: string; entity: string };

/** What a run needs besides the row: who holds it, when to stop, what to do with errors. */
export interface RunOptions {
  /** The instance's id, written as the lease holder when it took the row. */
  holder: string;
  /** True once the instance is stopping: the run ends after the batch under way, its lease let go. */
  stopping: () => boolean;
  onError: (err: unknown, what: string) => void;
  size?: number;
  /** Called after each batch is recorded (tests stop the server at a given point with it). */
  afterBatch?: (sel: SelectionRow, done: number) => void;
}

const held = (sel: SelectionRow, holder: string) =>
  and(eq(deviceSelections.id, sel.id), eq(deviceSelections.lease_holder, holder));
const leaseEnd = () => sql`now() + make_interval(secs => ${SELECTION_LEASE_MS / 1000})`;

/**
 * Walks a claimed selection's devices in batches (by name) from its resume point, hands each batch
 * to `act`, and records the batch on the row (the count every instance reads for progress, the
 * last name, a renewed lease) in one statement. A batch redone after a crash is acted on only for
 * the members `act` finds not yet done. Stopping lets the lease go so another start resumes at
 * once; losing the lease (another instance took the row) ends the run quietly. The row ends done,
 * also after an error (logged): what was done stays done.
 */
export async function runSelection(
  db: Db,
  sel: SelectionRow,
  act: (batch: Member[]) => Promise<unknown>,
  o: RunOptions,
): Promise<void> {
  let after = sel.last ?? '';
  let done = sel.done;
  const renew = setInterval(() => {
    void db
      .update(deviceSelections)
      .set({ lease_until: leaseEnd() })
      .where(held(sel, o.holder))
      .catch((err: unknown) => o.onError(err, 'renewing a selection’s lease'));
  }, SELECTION_LEASE_MS / 3);
  renew.unref();
  try {
    for (;;) {
      if (o.stopping()) {
        await db
          .update(deviceSelections)
          .set({ lease_until: sql`now()` })
          .where(held(sel, o.holder));
        return;
      }
      const batch = await db
        .select({ device: deviceSelectionMembers.device, entity: deviceSelectionMembers.entity })
        .from(deviceSelectionMembers)
        .where(and(eq(deviceSelectionMembers.selection, sel.id), gt(deviceSelectionMembers.device, after)))
        .orderBy(asc(deviceSelectionMembers.device))
        .limit(o.size ?? SELECTION_BATCH);
      if (batch.length === 0) break;
      await act(batch);
      after = batch[batch.length - 1]!.device;
      const kept = await db
        .update(deviceSelections)
        .set({ done: sql`${deviceSelections.done} + ${batch.length}`, last: after, lease_until: leaseEnd() })
        .where(held(sel, o.holder))
        .returning({ id: deviceSelections.id });
      if (kept.length === 0) return;
      done += batch.length;
      o.afterBatch?.(sel, done);
    }
  } catch (err) {
    o.onError(err, `the ${sel.action ?? ''} of a selection`);
  } finally {
    clearInterval(renew);
  }
  await db
    .update(deviceSelections)
    .set({ state: 'done', lease_until: null })
    .where(held(sel, o.holder))
    .catch((err: unknown) => o.onError(err, 'ending a selection'));
}

/** The first names of a selection, as its audit entry lists them. */
export async function firstNames(db: Db, sel: SelectionRow, max: number): Promise<string[]> {
  const rows = await db
    .select({ device: deviceSelectionMembers.device })
    .from(deviceSelectionMembers)
    .where(eq(deviceSelectionMembers.selection, sel.id))
    .orderBy(asc(deviceSelectionMembers.device))
    .limit(max);
  return rows.map((r) => r.device);
}
