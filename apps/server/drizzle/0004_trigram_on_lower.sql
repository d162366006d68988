DROP INDEX "devices_name_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_description_trgm_idx";--> statement-breakpoint
CREATE INDEX "devices_name_trgm_idx" ON "devices" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_description_trgm_idx" ON "devices" USING gin (lower("description") gin_trgm_ops);