-- Alerts (issue 29; docs/alerts.md): rules per entity, and alerts kept as history. Hand-written.
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"scope" text DEFAULT 'entity' NOT NULL,
	"scope_name" text,
	"threshold" integer,
	"start_delay_s" integer DEFAULT 0 NOT NULL,
	"clear_delay_s" integer DEFAULT 0 NOT NULL,
	"severity" text DEFAULT 'warning' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_entity_name_key" UNIQUE("entity","name")
);
--> statement-breakpoint
CREATE INDEX "alert_rules_entity_kind_idx" ON "alert_rules" USING btree ("entity","kind") WHERE "enabled";
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade,
	"rule_id" uuid NOT NULL REFERENCES "alert_rules"("id") ON DELETE cascade,
	"device" text NOT NULL REFERENCES "devices"("name") ON DELETE cascade ON UPDATE cascade,
	"status" text NOT NULL,
	"condition_since" timestamp with time zone NOT NULL,
	"raised_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text,
	"condition_ended_at" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	"cleared_by" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
-- One alert per rule and device at a time: pending, active or acknowledged.
CREATE UNIQUE INDEX "alerts_open_key" ON "alerts" USING btree ("rule_id","device") WHERE "status" <> 'cleared';
--> statement-breakpoint
CREATE INDEX "alerts_entity_raised_idx" ON "alerts" USING btree ("entity","raised_at" DESC NULLS LAST) WHERE "status" <> 'pending';
--> statement-breakpoint
CREATE INDEX "alerts_entity_open_idx" ON "alerts" USING btree ("entity","status") WHERE "status" in ('active', 'acknowledged');
--> statement-breakpoint
CREATE INDEX "alerts_device_idx" ON "alerts" USING btree ("device","raised_at" DESC NULLS LAST);
--> statement-breakpoint
-- What the sweep promotes (start delay passed) and clears (clear delay passed).
CREATE INDEX "alerts_pending_idx" ON "alerts" USING btree ("condition_since") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "alerts_ending_idx" ON "alerts" USING btree ("condition_ended_at") WHERE "condition_ended_at" IS NOT NULL AND "status" <> 'cleared';
--> statement-breakpoint
-- The default rules for the entities that exist already (new ones get them when created).
INSERT INTO "alert_rules" ("entity", "name", "kind", "threshold", "start_delay_s", "clear_delay_s", "severity")
SELECT e."name", d."name", d."kind", d."threshold", d."start_delay_s", d."clear_delay_s", d."severity"
FROM "entities" e CROSS JOIN (VALUES
	('Device unresponsive', 'unresponsive', 20, 0, 0, 'warning'),
	('Battery low', 'battery_low', 15, 300, 60, 'warning'),
	('Device in ERROR or DEFECT', 'device_error', NULL, 0, 0, 'critical')
) AS d("name", "kind", "threshold", "start_delay_s", "clear_delay_s", "severity");
