CREATE TABLE "beacon_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"beacon_mac" text NOT NULL,
	"patient_name" text NOT NULL,
	"room_number" text,
	"medications" jsonb NOT NULL,
	"rssi_threshold" smallint DEFAULT -75 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "beacon_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"event_type" text NOT NULL,
	"beacon_mac" text NOT NULL,
	"patient" text NOT NULL,
	"room" text,
	"rssi" smallint NOT NULL,
	"gateway" text NOT NULL,
	"medications" jsonb NOT NULL,
	"message_sent" boolean DEFAULT false NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "beacon_gateways" (
	"device" text PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"last_sighting_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "beacon_reminders" (
	"config_id" uuid NOT NULL,
	"due_date" text NOT NULL,
	"due_time" text NOT NULL,
	"gateway" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "beacon_reminders_config_id_due_date_due_time_pk" PRIMARY KEY("config_id","due_date","due_time")
);
--> statement-breakpoint
ALTER TABLE "beacon_configs" ADD CONSTRAINT "beacon_configs_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "beacon_events" ADD CONSTRAINT "beacon_events_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "beacon_gateways" ADD CONSTRAINT "beacon_gateways_device_devices_name_fk" FOREIGN KEY ("device") REFERENCES "public"."devices"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "beacon_reminders" ADD CONSTRAINT "beacon_reminders_config_id_beacon_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."beacon_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "beacon_configs_entity_mac_idx" ON "beacon_configs" USING btree ("entity","beacon_mac");--> statement-breakpoint
CREATE INDEX "beacon_events_entity_time_idx" ON "beacon_events" USING btree ("entity","timestamp" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "beacon_events_time_idx" ON "beacon_events" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "beacon_gateways_entity_idx" ON "beacon_gateways" USING btree ("entity","last_sighting_at");--> statement-breakpoint
CREATE INDEX "beacon_reminders_sent_idx" ON "beacon_reminders" USING btree ("sent_at");