-- Issue 27: one row per entity per UTC day (docs/decisions/2026-11-27-fleet-daily-snapshots.md),
-- written by the fleet snapshot sweep, so a 7 d / 30 d trend is one small read. Hand-written:
-- the Drizzle schema does not declare it (raw SQL in src/domain/fleet-health/fleet-daily*.ts).
-- The day's activity (presence from the hourly roll-up, commands, firmware updates, provisioning
-- sessions started that day by outcome, updates that succeeded per version) is rewritten while it
-- settles; the state of the fleet (`total` … `firmware`) is what it was when `taken_at` read it,
-- null when no sweep ran within a day of the day's end.
CREATE TABLE "fleet_daily" (
	"entity" text NOT NULL,
	"day" date NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"existed" integer NOT NULL,
	"online_day" integer NOT NULL,
	"heard_day" integer NOT NULL,
	"adoption" jsonb NOT NULL,
	"commands" jsonb NOT NULL,
	"firmware_updates" jsonb NOT NULL,
	"provisioning" jsonb NOT NULL,
	"total" integer,
	"online" integer,
	"unresponsive" integer,
	"never_seen" integer,
	"battery" jsonb,
	"states" jsonb,
	"firmware" jsonb,
	CONSTRAINT "fleet_daily_entity_day_pk" PRIMARY KEY("entity","day"),
	CONSTRAINT "fleet_daily_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade
);
--> statement-breakpoint
CREATE INDEX "fleet_daily_day_idx" ON "fleet_daily" USING btree ("day");
--> statement-breakpoint
-- The fleet health windows and the daily sweep read commands and provisioning sessions of an
-- entity by start time, and firmware updates by the time they succeeded. None of these columns
-- moves with a session's heard_at, so provision_sessions keeps its HOT updates.
CREATE INDEX "commands_entity_created_idx" ON "commands" USING btree ("entity","created_at");
--> statement-breakpoint
CREATE INDEX "commands_entity_dfu_replied_idx" ON "commands" USING btree ("entity","replied_at") WHERE "type" = 'dfu' AND "state" = 'succeeded';
--> statement-breakpoint
CREATE INDEX "provision_sessions_entity_created_idx" ON "provision_sessions" USING btree ("entity","created_at");
--> statement-breakpoint
-- Issue 26: the audit list's free text is one case-blind substring match over actor, target,
-- reason and action, served by one trigram index on the same expression (src/domain/audit/list-audit.ts
-- builds it with auditSearchText; the two must stay equal). Newlines separate the fields so a
-- search never matches across two of them.
CREATE INDEX "audit_entries_search_trgm_idx" ON "audit_entries" USING gin ((lower(coalesce("actor_name", '') || E'\n' || coalesce("target_name", '') || E'\n' || coalesce("reason", '') || E'\n' || "action")) gin_trgm_ops);
