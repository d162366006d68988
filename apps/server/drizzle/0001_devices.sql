CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "devices" (
	"name" text PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"group" text,
	"manufacturing_type" text DEFAULT 'CC1' NOT NULL,
	"version_id" text,
	"mac_1" text,
	"mac_2" text,
	"x509_certificate" text,
	"fw_version" text,
	"state_current" text,
	"battery" smallint,
	"is_charging" boolean,
	"last_dispenser" text,
	"current_provision" text,
	"current_download" text,
	"mqtt_secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "devices_entity_created_idx" ON "devices" USING btree ("entity","created_at" DESC NULLS LAST,"name");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at" DESC NULLS LAST,"name");--> statement-breakpoint
CREATE INDEX "devices_entity_updated_idx" ON "devices" USING btree ("entity","updated_at","name");--> statement-breakpoint
CREATE INDEX "devices_entity_state_idx" ON "devices" USING btree ("entity","state_current","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "devices_entity_fw_idx" ON "devices" USING btree ("entity","fw_version","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "devices_entity_battery_idx" ON "devices" USING btree ("entity","battery","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "devices_name_trgm_idx" ON "devices" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_description_trgm_idx" ON "devices" USING gin ("description" gin_trgm_ops);