-- The device list's free text inside one entity (issue 27): the trigram indexes on lower(name) and
-- lower(description) carried no entity, so at 1,000,000 devices over 50 entities `search=lobby`
-- found the matches of every entity and read their heap pages to keep one entity's (10,309 rows
-- and 12,093 pages for 206; 300–700 ms on PGlite). With btree_gin the entity is a key of the same
-- GIN index, so the bitmap is the entity's matches only. A GIN index answers any subset of its
-- columns, so the superadmin's search across entities still uses them. Hand-written;
-- docs/decisions/2026-11-28-device-search-by-entity.md. btree_gin ships in PGlite's contrib and
-- in Debian's postgresql-15.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "devices_name_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_description_trgm_idx";--> statement-breakpoint
CREATE INDEX "devices_entity_name_trgm_idx" ON "devices" USING gin ("entity", lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_entity_description_trgm_idx" ON "devices" USING gin ("entity", lower("description") gin_trgm_ops);
