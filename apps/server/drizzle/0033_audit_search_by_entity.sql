-- The audit list's free text inside one entity (issue 26): the trigram index of 0015 carried no
-- entity, so at 1,000,000 entries over 50 entities an entity's search read the candidates of every
-- entity and visited their heap pages to keep its own (26,800 entries for "unit_42", 4,400 of them
-- the entity's). With btree_gin (0029) the entity is a key of the same GIN index, so the bitmap is
-- the entity's candidates only; a GIN index answers any subset of its columns, so the superadmin's
-- search across entities still uses it. PGlite runs no autovacuum: the pending list every search
-- scans is kept to 256 kB, as the device search's (0031). The expression must stay equal to
-- auditSearchText in src/domain/audit/list-audit.ts. Hand-written;
-- docs/decisions/2026-11-29-audit-search-by-entity.md.
DROP INDEX "audit_entries_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "audit_entries_entity_search_trgm_idx" ON "audit_entries" USING gin ("entity", (lower(coalesce("actor_name", '') || E'\n' || coalesce("target_name", '') || E'\n' || coalesce("reason", '') || E'\n' || "action")) gin_trgm_ops) WITH (gin_pending_list_limit = 256);
