import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceSelectionMembers, deviceSelections } from '../../db/schema.ts';
import { SELECTION_BATCH, type SelectionRow } from './selection-scope.ts';

export type Member = { device: string; entity: string };

/**
 * Walks a claimed selection's devices in batches (by name), hands each batch to `act`, and counts
 * the batch as done on the row, which every instance reads for progress. Ends the row as done,
 * also after an error (logged by `onError`): what was done stays done.
 */
export async function runSelection(
  db: Db,
  sel: SelectionRow,
  act: (batch: Member[]) => Promise<unknown>,
  onError: (err: unknown, what: string) => void,
  size = SELECTION_BATCH,
): Promise<void> {
  let after = '';
  try {
    for (;;) {
      const batch = await db
        .select({ device: deviceSelectionMembers.device, entity: deviceSelectionMembers.entity })
        .from(deviceSelectionMembers)
        .where(and(eq(deviceSelectionMembers.selection, sel.id), gt(deviceSelectionMembers.device, after)))
        .orderBy(asc(deviceSelectionMembers.device))
        .limit(size);
      if (batch.length === 0) break;
      await act(batch);
      after = batch[batch.length - 1]!.device;
      await db
        .update(deviceSelections)
        .set({ done: sql`${deviceSelections.done} + ${batch.length}` })
        .where(eq(deviceSelections.id, sel.id));
    }
  } catch (err) {
    onError(err, `the ${sel.action ?? ''} of a selection`);
  }
  await db
    .update(deviceSelections)
    .set({ state: 'done' })
    .where(eq(deviceSelections.id, sel.id))
    .catch((err: unknown) => onError(err, 'ending a selection'));
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
