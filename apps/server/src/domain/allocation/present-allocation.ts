import type { Allocation } from '@fleet/shared/schemas/allocation';
import type { allocations } from '../../db/schema.ts';

export type AllocationRow = typeof allocations.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** An allocation as its history shows it. */
export function presentAllocation(row: AllocationRow): Allocation {
  return {
    id: row.id,
    device: row.device,
    entity: row.entity,
    kiosk: row.kiosk,
    dispenser: row.dispenser,
    visitor: row.visitor,
    apps: row.apps,
    network: row.network ?? null,
    allocated_by: row.allocated_by,
    allocated_at: iso(row.allocated_at)!,
    returned_at: iso(row.returned_at),
    returned_by: row.returned_by,
    returned_to: row.returned_to,
    outcome: row.outcome,
  };
}
