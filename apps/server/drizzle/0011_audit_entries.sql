CREATE TABLE "audit_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"entity" text,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"actor_account" text,
	"address" text,
	"user_agent" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_name" text,
	"outcome" text NOT NULL,
	"reason" text,
	"changes" jsonb,
	"details" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_entries_entity_at_idx" ON "audit_entries" USING btree ("entity","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("entity","action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries" USING btree ("entity","actor_name","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_target_idx" ON "audit_entries" USING btree ("entity","target_type","target_name","at" DESC NULLS LAST);--> statement-breakpoint
-- Append-only: an entry is never changed; only the retention sweep deletes.
CREATE FUNCTION "audit_entries_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit entries are append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_entries_append_only" BEFORE UPDATE ON "audit_entries" FOR EACH ROW EXECUTE FUNCTION "audit_entries_refuse_update"();
