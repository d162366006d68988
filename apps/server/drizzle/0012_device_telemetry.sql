-- Telemetry history (docs/decisions/2026-11-25-telemetry-history.md). Drizzle cannot declare a
-- partitioned table; the schema (src/db/schema/telemetry.ts) describes the same columns.
-- Raw points by day and hourly aggregates by month; the sweep creates partitions ahead and drops
-- whole ones past retention. The default partitions only catch rows written before the sweep
-- made their day's partition; it moves them when it does.
CREATE TABLE "device_telemetry" (
	"entity" text NOT NULL,
	"device" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"device_at" timestamp with time zone,
	"kind" text NOT NULL,
	"online" boolean NOT NULL,
	"state" text,
	"battery" smallint,
	"is_charging" boolean,
	"fw_version" text
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE TABLE "device_telemetry_default" PARTITION OF "device_telemetry" DEFAULT;
--> statement-breakpoint
CREATE TABLE "device_telemetry_hourly" (
	"entity" text NOT NULL,
	"device" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"points" integer NOT NULL,
	"battery_min" smallint,
	"battery_max" smallint,
	"battery_mean" real,
	"charging_s" integer NOT NULL,
	"online_s" integer NOT NULL,
	"state_s" jsonb NOT NULL,
	CONSTRAINT "device_telemetry_hourly_entity_device_hour_pk" PRIMARY KEY("entity","device","hour")
) PARTITION BY RANGE ("hour");
--> statement-breakpoint
CREATE TABLE "device_telemetry_hourly_default" PARTITION OF "device_telemetry_hourly" DEFAULT;
--> statement-breakpoint
CREATE INDEX "device_telemetry_device_at_idx" ON "device_telemetry" USING btree ("entity","device","at");
--> statement-breakpoint
CREATE TABLE "telemetry_rollup" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"through" timestamp with time zone NOT NULL,
	CONSTRAINT "telemetry_rollup_one_row" CHECK ("id")
);
