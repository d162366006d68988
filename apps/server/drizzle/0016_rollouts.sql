-- Issue 28: health-gated progressive firmware rollouts (docs/rollouts.md).
CREATE TABLE "rollouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"name" text NOT NULL,
	"firmware_id" uuid,
	"version" text NOT NULL,
	"device_type" text NOT NULL,
	"target" jsonb NOT NULL,
	"canary" integer NOT NULL,
	"percents" jsonb NOT NULL,
	"success_threshold_pct" integer NOT NULL,
	"error_threshold_pct" integer NOT NULL,
	"report_timeout_s" integer NOT NULL,
	"hold_s" integer NOT NULL,
	"max_in_flight" integer NOT NULL,
	"approval" boolean NOT NULL,
	"download_base" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"current_stage" integer DEFAULT 0 NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"pause_reason" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rollouts_state_check" CHECK (state in ('draft', 'running', 'paused', 'awaiting_approval', 'cancelled', 'finished'))
);
--> statement-breakpoint
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_firmware_id_firmware_id_fk" FOREIGN KEY ("firmware_id") REFERENCES "public"."firmware"("id") ON DELETE set null;--> statement-breakpoint
CREATE INDEX "rollouts_entity_created_idx" ON "rollouts" USING btree ("entity","created_at" DESC);--> statement-breakpoint
CREATE INDEX "rollouts_active_idx" ON "rollouts" USING btree ("state") WHERE state not in ('draft', 'finished');--> statement-breakpoint
CREATE TABLE "rollout_devices" (
	"rollout" uuid NOT NULL,
	"device" text NOT NULL,
	"attempt" integer NOT NULL,
	"stage" integer,
	"position" integer NOT NULL,
	"state" text NOT NULL,
	"superseded" boolean DEFAULT false NOT NULL,
	"command_id" uuid,
	"error" text,
	"claimed_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "rollout_devices_pk" PRIMARY KEY("rollout","device","attempt"),
	CONSTRAINT "rollout_devices_state_check" CHECK (state in ('waiting', 'in_flight', 'succeeded', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "rollout_devices" ADD CONSTRAINT "rollout_devices_rollout_rollouts_id_fk" FOREIGN KEY ("rollout") REFERENCES "public"."rollouts"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "rollout_devices" ADD CONSTRAINT "rollout_devices_device_devices_name_fk" FOREIGN KEY ("device") REFERENCES "public"."devices"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "rollout_devices_open_idx" ON "rollout_devices" USING btree ("rollout","stage","position") WHERE state in ('waiting', 'in_flight') and not superseded;
