import type { Allocation } from '@fleet/shared/schemas/allocation';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import type { allocations } from '../../db/schema.ts';
import { dataviewReader, withholdUnreadable, type DataviewReader } from '../dataview/dataview-reader.ts';

export type AllocationRow = typeof allocations.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** An allocation as its history shows it to a reader: dataviews it may not read by name only. */
export function presentAllocation(row: AllocationRow, mayRead: DataviewReader): Allocation {
  return {
    id: row.id,
    device: row.device,
    entity: row.entity,
    kiosk: row.kiosk,
    dispenser: row.dispenser,
    visitor: row.visitor,
    apps: withholdUnreadable(row.entity, row.apps, mayRead),
    network: row.network ?? null,
    allocated_by: row.allocated_by,
    allocated_at: iso(row.allocated_at)!,
    returned_at: iso(row.returned_at),
    returned_by: row.returned_by,
    returned_to: row.returned_to,
    outcome: row.outcome,
  };
}

/** Allocations as `actor` may see them (fleet §6: a dataview's content only to those who may read it). */
export async function presentAllocationsFor(db: Executor, actor: AccessClaims, rows: AllocationRow[]) {
  const mayRead = await dataviewReader(
    db,
    actor,
    rows.map((r) => ({ entity: r.entity, names: Object.keys(r.apps) })),
  );
  return rows.map((r) => presentAllocation(r, mayRead));
}
