-- A selection's run survives a restart (issue 27; docs/decisions/2026-11-28-selection-resume.md).
-- Hand-written. The action's arguments, the resume point (the last member name done, members are
-- walked by name), when the run started (what a redone batch checks against), and the lease of
-- the instance running it: a start-up and periodic sweep takes `running` rows whose lease lapsed.
ALTER TABLE "device_selections" ADD COLUMN "args" jsonb;--> statement-breakpoint
ALTER TABLE "device_selections" ADD COLUMN "last" text;--> statement-breakpoint
ALTER TABLE "device_selections" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_selections" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "device_selections" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "device_selections_running_idx" ON "device_selections" USING btree ("lease_until") WHERE "state" = 'running';
