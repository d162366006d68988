import type { entities } from '../../db/schema.ts';

export type EntityRow = typeof entities.$inferSelect;

/** What the API shows of an entity. */
export function presentEntity(row: EntityRow) {
  return {
    name: row.name,
    description: row.description,
    license_tier: row.license_tier as 'basic' | 'pro',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
