DROP INDEX "devices_entity_created_idx";--> statement-breakpoint
DROP INDEX "devices_created_idx";--> statement-breakpoint
CREATE INDEX "devices_entity_created_idx" ON "devices" USING btree ("entity","created_at" DESC NULLS LAST,"name" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at" DESC NULLS LAST,"name" DESC NULLS LAST);