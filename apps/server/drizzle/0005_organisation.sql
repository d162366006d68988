CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"capacity" integer,
	"kiosk" text,
	"site" text,
	"floor" integer,
	"latitude" double precision,
	"longitude" double precision,
	"configuration" jsonb,
	"networkinfo" jsonb,
	"globalinfo" jsonb,
	"allocinfo" jsonb,
	"unallocinfo" jsonb,
	"x509_certificate" text,
	"state_current" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "groups_entity_name_key" UNIQUE("entity","name")
);
--> statement-breakpoint
CREATE TABLE "kiosks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"site" text,
	"floor" integer,
	"latitude" double precision,
	"longitude" double precision,
	"state_current" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kiosks_entity_name_key" UNIQUE("entity","name")
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"postalcode" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"networkinfo" jsonb,
	"globalinfo" jsonb,
	"allocinfo" jsonb,
	"unallocinfo" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_entity_name_key" UNIQUE("entity","name")
);
--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "networkinfo" jsonb;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "globalinfo" jsonb;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "allocinfo" jsonb;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "unallocinfo" jsonb;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "device_path" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_site_fk" FOREIGN KEY ("entity","site") REFERENCES "public"."sites"("entity","name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_kiosk_fk" FOREIGN KEY ("entity","kiosk") REFERENCES "public"."kiosks"("entity","name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "kiosks" ADD CONSTRAINT "kiosks_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "kiosks" ADD CONSTRAINT "kiosks_site_fk" FOREIGN KEY ("entity","site") REFERENCES "public"."sites"("entity","name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "groups_entity_site_idx" ON "groups" USING btree ("entity","site");--> statement-breakpoint
CREATE INDEX "groups_entity_kiosk_idx" ON "groups" USING btree ("entity","kiosk");--> statement-breakpoint
CREATE INDEX "kiosks_entity_site_idx" ON "kiosks" USING btree ("entity","site");--> statement-breakpoint
-- Hand-written data fix (not generated): until this migration a device's group was free text.
-- Every group name devices already carry becomes a group of their entity (no capacity limit), so
-- the foreign keys below hold and nobody's grouping is lost.
INSERT INTO "groups" ("entity", "name")
SELECT DISTINCT "entity", "group" FROM "devices" WHERE "group" IS NOT NULL
UNION
SELECT DISTINCT "entity", "last_dispenser" FROM "devices" WHERE "last_dispenser" IS NOT NULL
ON CONFLICT ("entity", "name") DO NOTHING;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_group_fk" FOREIGN KEY ("entity","group") REFERENCES "public"."groups"("entity","name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_last_dispenser_fk" FOREIGN KEY ("entity","last_dispenser") REFERENCES "public"."groups"("entity","name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "devices_entity_group_idx" ON "devices" USING btree ("entity","group","created_at" DESC NULLS LAST,"name" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "devices_entity_last_dispenser_idx" ON "devices" USING btree ("entity","last_dispenser") WHERE last_dispenser is not null;