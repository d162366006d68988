-- Issue 28: the rollout engine's remaining knobs (docs/rollouts.md): file-set delivery, soak,
-- time window, jitter; per device when its jittered send is due and when it went out.
ALTER TABLE "rollouts" ADD COLUMN "delivery" text DEFAULT 'firmware' NOT NULL;--> statement-breakpoint
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_delivery_check" CHECK (delivery in ('firmware', 'files'));--> statement-breakpoint
ALTER TABLE "rollouts" ALTER COLUMN "version" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rollouts" ALTER COLUMN "device_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rollouts" ADD COLUMN "soak_s" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rollouts" ADD COLUMN "send_window" jsonb;--> statement-breakpoint
ALTER TABLE "rollouts" ADD COLUMN "jitter_s" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rollouts" ADD COLUMN "soak_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rollout_devices" ADD COLUMN "send_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rollout_devices" ADD COLUMN "sent_at" timestamp with time zone;
