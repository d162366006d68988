-- The device list's free text in a table of its own (issue 32; docs/decisions/
-- 2026-11-29-device-search-table.md). A state report moves `updated_at` and `battery`, both
-- indexed, so no telemetry update of devices is HOT and every one put a new entry into every index
-- of devices, the two trigram GIN indexes included: trigram extraction of the id and description
-- and a pending-list insert per report, and the list's flush into the index every 256 kB. The
-- text a search reads changes only when a device is registered, moved or described: it lives
-- here, kept by triggers on devices (a rename follows the foreign key), and the telemetry flush
-- never touches it. Same keys and pending list as migrations 0029 and 0031. Hand-written.
CREATE TABLE "device_search" (
	"name" text PRIMARY KEY NOT NULL REFERENCES "devices"("name") ON DELETE cascade ON UPDATE cascade,
	"entity" text NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "device_search" ("name", "entity", "description") SELECT "name", "entity", "description" FROM "devices";
--> statement-breakpoint
CREATE INDEX "device_search_entity_name_trgm_idx" ON "device_search" USING gin ("entity", lower("name") gin_trgm_ops) WITH (gin_pending_list_limit = 256);
--> statement-breakpoint
CREATE INDEX "device_search_entity_description_trgm_idx" ON "device_search" USING gin ("entity", lower("description") gin_trgm_ops) WITH (gin_pending_list_limit = 256);
--> statement-breakpoint
-- Registered devices, one statement at a time (a fill of a million is one insert).
CREATE FUNCTION "device_search_inserted"() RETURNS trigger AS $$
BEGIN
	INSERT INTO device_search (name, entity, description)
	SELECT d.name, d.entity, d.description FROM new_devices d;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A device moved to another entity or described anew. PostgreSQL allows no transition table on a
-- trigger with a column list, so this one is by row; a telemetry update names neither column and
-- never fires it.
CREATE FUNCTION "device_search_updated"() RETURNS trigger AS $$
BEGIN
	UPDATE device_search SET entity = NEW.entity, description = NEW.description WHERE name = NEW.name;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "devices_search_inserted" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS new_devices
	FOR EACH STATEMENT EXECUTE FUNCTION device_search_inserted();
--> statement-breakpoint
CREATE TRIGGER "devices_search_updated" AFTER UPDATE OF "entity", "description" ON "devices" FOR EACH ROW
	WHEN (OLD.entity IS DISTINCT FROM NEW.entity OR OLD.description IS DISTINCT FROM NEW.description)
	EXECUTE FUNCTION device_search_updated();
--> statement-breakpoint
DROP INDEX "devices_entity_name_trgm_idx";
--> statement-breakpoint
DROP INDEX "devices_entity_description_trgm_idx";
--> statement-breakpoint
ANALYZE "device_search";
