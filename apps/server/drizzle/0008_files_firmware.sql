CREATE TABLE "files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"level" text NOT NULL,
	"target" text NOT NULL,
	"filename" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"blob_key" text NOT NULL,
	"file_device_path" text,
	"upload_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"level" text NOT NULL,
	"target" text NOT NULL,
	"filename" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"blob_key" text NOT NULL,
	"version" text NOT NULL,
	"device_type" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"release_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "progress_phase" text;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "progress" smallint;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "firmware" ADD CONSTRAINT "firmware_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "files_target_idx" ON "files" USING btree ("entity","level","target","upload_date" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_version_uq" ON "firmware" USING btree ("entity","level","target","device_type","version");--> statement-breakpoint
CREATE INDEX "firmware_pick_idx" ON "firmware" USING btree ("entity","device_type","level","target","release_date" DESC NULLS LAST);