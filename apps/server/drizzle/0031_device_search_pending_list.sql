-- The device search's trigram indexes keep a small GIN pending list (issue 27): every device
-- update that is not HOT (every telemetry flush: updated_at is indexed) puts its trigrams in the
-- index's pending list, and every search scans the whole list. PostgreSQL's autovacuum flushes it;
-- PGlite runs none, so the list grew to GIN's default 4 MB before the writer flushed it, and a
-- search at a million devices read up to 1,024 pending pages. At 256 kB the writer flushes it
-- sooner, in smaller pieces. Hand-written; docs/decisions/2026-11-29-gin-pending-list-limit.md.
ALTER INDEX "devices_entity_name_trgm_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "devices_entity_description_trgm_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
SELECT gin_clean_pending_list('devices_entity_name_trgm_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('devices_entity_description_trgm_idx'::regclass);
