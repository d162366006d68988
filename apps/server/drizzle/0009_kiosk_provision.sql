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
CREATE TABLE "provision_events" (
	"session_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"event" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provision_events_session_id_seq_pk" PRIMARY KEY("session_id","seq")
);
--> statement-breakpoint
CREATE TABLE "provision_files" (
	"session_id" uuid NOT NULL,
	"device_path" text NOT NULL,
	"filename" text NOT NULL,
	"file_id" uuid NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"ord" integer NOT NULL,
	CONSTRAINT "provision_files_session_id_device_path_pk" PRIMARY KEY("session_id","device_path")
);
--> statement-breakpoint
CREATE TABLE "provision_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"device" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"started_by" text NOT NULL,
	"prior_state" text,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"device_seq" integer DEFAULT 0 NOT NULL,
	"total_files" integer DEFAULT 0 NOT NULL,
	"completed_files" integer DEFAULT 0 NOT NULL,
	"failed_files" integer DEFAULT 0 NOT NULL,
	"downloading_files" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heard_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_device_devices_name_fk" FOREIGN KEY ("device") REFERENCES "public"."devices"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "provision_events" ADD CONSTRAINT "provision_events_session_id_provision_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."provision_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provision_files" ADD CONSTRAINT "provision_files_session_id_provision_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."provision_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provision_sessions" ADD CONSTRAINT "provision_sessions_device_devices_name_fk" FOREIGN KEY ("device") REFERENCES "public"."devices"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "allocations_open_device_key" ON "allocations" USING btree ("device") WHERE returned_at is null;--> statement-breakpoint
CREATE INDEX "allocations_device_time_idx" ON "allocations" USING btree ("device","allocated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "provision_sessions_open_uq" ON "provision_sessions" USING btree ("device") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "provision_sessions_device_idx" ON "provision_sessions" USING btree ("device","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "provision_sessions_heard_idx" ON "provision_sessions" USING btree ("heard_at") WHERE ended_at is null;