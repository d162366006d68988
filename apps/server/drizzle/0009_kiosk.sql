CREATE TABLE "allocations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device" text NOT NULL,
	"entity" text NOT NULL,
	"kiosk" text NOT NULL,
	"dispenser" text NOT NULL,
	"visitor" text NOT NULL,
	"apps" jsonb NOT NULL,
	"network" jsonb,
	"allocated_by" text NOT NULL,
	"allocated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"returned_at" timestamp with time zone,
	"returned_by" text,
	"returned_to" text,
	"outcome" text DEFAULT 'open' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_device_devices_name_fk" FOREIGN KEY ("device") REFERENCES "public"."devices"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "allocations_open_device_key" ON "allocations" USING btree ("device") WHERE returned_at is null;--> statement-breakpoint
CREATE INDEX "allocations_device_time_idx" ON "allocations" USING btree ("device","allocated_at" DESC NULLS LAST);