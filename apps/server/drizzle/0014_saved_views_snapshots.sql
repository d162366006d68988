-- Issue 27: saved views of the device list, and the fixed device sets "select all matching" acts on.
CREATE TABLE "saved_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text,
	"owner" text NOT NULL,
	"name" text NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"query" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_views_entity_fk" FOREIGN KEY ("entity") REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade,
	CONSTRAINT "saved_views_owner_fk" FOREIGN KEY ("owner") REFERENCES "accounts"("name") ON DELETE cascade ON UPDATE cascade
);
--> statement-breakpoint
CREATE INDEX "saved_views_entity_idx" ON "saved_views" USING btree ("entity","name");--> statement-breakpoint
CREATE TABLE "device_selections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text,
	"owner" text NOT NULL,
	"query" text NOT NULL,
	"total" integer NOT NULL,
	"action" text,
	"state" text DEFAULT 'counted' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_selections_entity_fk" FOREIGN KEY ("entity") REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade
);
--> statement-breakpoint
CREATE INDEX "device_selections_expires_idx" ON "device_selections" USING btree ("expires_at");--> statement-breakpoint
CREATE TABLE "device_selection_members" (
	"selection" uuid NOT NULL,
	"device" text NOT NULL,
	"entity" text NOT NULL,
	CONSTRAINT "device_selection_members_pk" PRIMARY KEY ("selection","device"),
	CONSTRAINT "device_selection_members_selection_fk" FOREIGN KEY ("selection") REFERENCES "device_selections"("id") ON DELETE cascade
);
