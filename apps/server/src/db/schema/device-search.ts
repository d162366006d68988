// The device list's free text, apart from the device rows (migration 0032, hand-written).
import { sql } from 'drizzle-orm';
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { devices } from './fleet.ts';

/**
 * What a device search reads (its id and description, by entity), kept by triggers on `devices`
 * (migration 0032): registered, moved to another entity or described anew. Apart from the device
 * rows so that a telemetry update, which is never HOT, writes no trigram entries (issue 32).
 */
export const deviceSearch = pgTable(
  'device_search',
  {
    name: text('name')
      .primaryKey()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    entity: text('entity').notNull(),
    description: text('description').notNull(),
  },
  (t) => [
    // On lower(…), so only the search (which asks for lower(…) like …) can use them; the entity
    // first (btree_gin): an entity's search reads only its own matches (migration 0029). A pending
    // list of 256 kB, not 4 MB: every search scans it, and PGlite has no autovacuum (0031).
    index('device_search_entity_name_trgm_idx')
      .using('gin', t.entity, sql`lower(${t.name}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
    index('device_search_entity_description_trgm_idx')
      .using('gin', t.entity, sql`lower(${t.description}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
  ],
);
