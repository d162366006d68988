-- Alert rule kinds from events (issue 29; docs/alerts.md): command, firmware and provisioning
-- failures, charging stopped, and a rollout paused. A rollout's alert has no device: it is keyed
-- by the rollout, one open alert per rule and rollout. Hand-written.
ALTER TABLE "alerts" ALTER COLUMN "device" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "rollout" uuid REFERENCES "rollouts"("id") ON DELETE cascade;
--> statement-breakpoint
-- Every alert is about exactly one thing: a device, or a rollout.
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_subject_check" CHECK (num_nonnulls("device", "rollout") = 1);
--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_rollout_key" ON "alerts" USING btree ("rule_id","rollout") WHERE "status" <> 'cleared' AND "rollout" IS NOT NULL;
