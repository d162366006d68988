-- The audit list's filters that matched no index (issue 26; docs/decisions/2026-11-28-audit-total-capped.md):
-- `outcome=failure` and an actor given by a token's hash prefix or the account a token acts for
-- walked every entry of the entity (200,000 at the bench's million) to find a few, for the page
-- and for its count. Partial indexes: only the entries they hold pay for them, so a successful
-- entry by an account or a device (nearly every one) writes no more than before. The list's
-- actor filter states `actor_id is distinct from actor_name` for the id so this predicate is
-- implied (an account's or device's id is its name, already in audit_entries_actor_idx).
-- Hand-written.
CREATE INDEX "audit_entries_entity_failure_idx" ON "audit_entries" USING btree ("entity","at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "outcome" = 'failure';--> statement-breakpoint
CREATE INDEX "audit_entries_failure_idx" ON "audit_entries" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "outcome" = 'failure';--> statement-breakpoint
CREATE INDEX "audit_entries_actor_id_idx" ON "audit_entries" USING btree ("entity","actor_id","at" DESC NULLS LAST) WHERE "actor_id" IS DISTINCT FROM "actor_name";--> statement-breakpoint
CREATE INDEX "audit_entries_actor_account_idx" ON "audit_entries" USING btree ("entity","actor_account","at" DESC NULLS LAST) WHERE "actor_account" IS NOT NULL;
