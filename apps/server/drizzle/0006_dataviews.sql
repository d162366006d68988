CREATE TABLE "dataview_accounts" (
	"dataview_id" uuid NOT NULL,
	"account" text NOT NULL,
	CONSTRAINT "dataview_accounts_dataview_id_account_pk" PRIMARY KEY("dataview_id","account")
);
--> statement-breakpoint
CREATE TABLE "dataviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"version" text NOT NULL,
	"owner" text,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dataview_accounts" ADD CONSTRAINT "dataview_accounts_dataview_id_dataviews_id_fk" FOREIGN KEY ("dataview_id") REFERENCES "public"."dataviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataview_accounts" ADD CONSTRAINT "dataview_accounts_account_accounts_name_fk" FOREIGN KEY ("account") REFERENCES "public"."accounts"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "dataviews" ADD CONSTRAINT "dataviews_entity_entities_name_fk" FOREIGN KEY ("entity") REFERENCES "public"."entities"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "dataviews" ADD CONSTRAINT "dataviews_owner_accounts_name_fk" FOREIGN KEY ("owner") REFERENCES "public"."accounts"("name") ON DELETE set null ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "dataview_accounts_account_idx" ON "dataview_accounts" USING btree ("account");--> statement-breakpoint
CREATE UNIQUE INDEX "dataviews_entity_name_idx" ON "dataviews" USING btree ("entity","name");--> statement-breakpoint
CREATE INDEX "dataviews_owner_idx" ON "dataviews" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "dataviews_version_idx" ON "dataviews" USING btree ("version");