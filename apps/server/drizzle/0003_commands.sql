CREATE TABLE "commands" (
	"id" uuid NOT NULL,
	"device" text NOT NULL,
	"entity" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"target" text NOT NULL,
	"state" text NOT NULL,
	"sent_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"error" text,
	"latency_ms" integer,
	CONSTRAINT "commands_id_device_pk" PRIMARY KEY("id","device")
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_device_devices_name_fk" FOREIGN KEY ("device") REFERENCES "public"."devices"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "commands_device_created_idx" ON "commands" USING btree ("device","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "commands_open_idx" ON "commands" USING btree ("state","device") WHERE state in ('queued', 'sent');