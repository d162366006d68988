-- Alert delivery (issue 29; docs/alerts.md, docs/webhooks.md): per-rule e-mail and webhook choices. Hand-written.
ALTER TABLE "alert_rules" ADD COLUMN "email_to" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "alert_rules" ADD COLUMN "webhook" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Webhooks per entity: an https (or loopback http) URL, a secret shown once, the events it takes.
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL REFERENCES "entities"("name") ON DELETE cascade ON UPDATE cascade,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"events" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhooks_entity_idx" ON "webhooks" USING btree ("entity");
--> statement-breakpoint
-- The durable queue and the log: one row per event and webhook, the exact body that is signed.
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"webhook_id" uuid NOT NULL REFERENCES "webhooks"("id") ON DELETE cascade,
	"entity" text NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"last_duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at" DESC);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"delivery_id" uuid NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE cascade,
	"webhook_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempt");
--> statement-breakpoint
-- Alerts raised for a rule with e-mail addresses, waiting to be sent as one e-mail per burst.
CREATE TABLE "alert_emails" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"entity" text NOT NULL,
	"rule_id" uuid NOT NULL REFERENCES "alert_rules"("id") ON DELETE cascade,
	"alert_id" uuid NOT NULL REFERENCES "alerts"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alert_emails_rule_idx" ON "alert_emails" USING btree ("rule_id","created_at");
--> statement-breakpoint
-- An event for the entity's enabled webhooks subscribed to its type: one queue row each, written in
-- the transaction of the change (an outbox: an event is never lost to a crash between the two).
CREATE FUNCTION "fleet_webhook_event"(p_entity text, p_type text, p_data jsonb) RETURNS void AS $$
BEGIN
	INSERT INTO webhook_deliveries (webhook_id, entity, event_id, event_type, body)
	SELECT w.id, w.entity, ev.id, p_type, jsonb_build_object('id', ev.id, 'type', p_type, 'entity', p_entity,
		'occurred_at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', p_data)::text
	FROM webhooks w CROSS JOIN (SELECT gen_random_uuid() AS id) ev
	WHERE w.entity = p_entity AND w.enabled AND p_type = ANY (w.events);
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION "fleet_alert_delivery"() RETURNS trigger AS $$
DECLARE
	t text;
	r alert_rules%ROWTYPE;
BEGIN
	IF NEW.status = 'active' AND (TG_OP = 'INSERT' OR OLD.status = 'pending') THEN t := 'alert.raised';
	ELSIF TG_OP = 'UPDATE' AND NEW.status = 'acknowledged' AND OLD.status = 'active' THEN t := 'alert.acknowledged';
	ELSIF TG_OP = 'UPDATE' AND NEW.status = 'cleared' AND OLD.status IN ('active', 'acknowledged') THEN t := 'alert.cleared';
	ELSE RETURN NULL;
	END IF;
	SELECT * INTO r FROM alert_rules WHERE id = NEW.rule_id;
	IF r.webhook THEN
		-- Every column of the alert (a rollout's alert names its rollout), with its rule's name, kind, severity.
		PERFORM fleet_webhook_event(NEW.entity, t, (to_jsonb(NEW) - 'condition_ended_at')
			|| jsonb_build_object('rule_name', r.name, 'kind', r.kind, 'severity', r.severity));
	END IF;
	IF t = 'alert.raised' AND cardinality(r.email_to) > 0 THEN
		INSERT INTO alert_emails (entity, rule_id, alert_id) VALUES (NEW.entity, NEW.rule_id, NEW.id);
	END IF;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "alerts_delivery" AFTER INSERT OR UPDATE OF "status" ON "alerts"
	FOR EACH ROW EXECUTE FUNCTION fleet_alert_delivery();
--> statement-breakpoint
CREATE FUNCTION "fleet_device_delivery"() RETURNS trigger AS $$
DECLARE
	d devices%ROWTYPE;
	t text;
BEGIN
	IF TG_OP = 'DELETE' THEN d := OLD; t := 'device.deleted';
	ELSIF TG_OP = 'INSERT' THEN d := NEW; t := 'device.created';
	ELSE d := NEW; t := CASE WHEN NEW.online THEN 'device.online' ELSE 'device.offline' END;
	END IF;
	PERFORM fleet_webhook_event(d.entity, t, jsonb_build_object('device', d.name, 'group', d."group",
		'description', d.description, 'online', d.online, 'last_seen', d.updated_at));
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "devices_delivery" AFTER INSERT OR DELETE ON "devices"
	FOR EACH ROW EXECUTE FUNCTION fleet_device_delivery();
--> statement-breakpoint
CREATE TRIGGER "devices_online_delivery" AFTER UPDATE OF "online" ON "devices"
	FOR EACH ROW WHEN (OLD.online IS DISTINCT FROM NEW.online) EXECUTE FUNCTION fleet_device_delivery();
--> statement-breakpoint
-- A command's outcome: a firmware update (dfu) is firmware.*, any other command command.*.
CREATE FUNCTION "fleet_command_delivery"() RETURNS trigger AS $$
BEGIN
	PERFORM fleet_webhook_event(NEW.entity,
		CASE WHEN NEW.type = 'dfu' THEN 'firmware.' ELSE 'command.' END
			|| CASE WHEN NEW.state = 'succeeded' THEN 'succeeded' ELSE 'failed' END,
		jsonb_build_object('command', NEW.id, 'device', NEW.device, 'type', NEW.type, 'payload', NEW.payload,
			'state', NEW.state, 'error', NEW.error, 'latency_ms', NEW.latency_ms, 'sent_by', NEW.sent_by));
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "commands_delivery" AFTER UPDATE OF "state" ON "commands"
	FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.state IN ('succeeded', 'failed', 'timed_out', 'expired'))
	EXECUTE FUNCTION fleet_command_delivery();
--> statement-breakpoint
CREATE FUNCTION "fleet_provision_delivery"() RETURNS trigger AS $$
BEGIN
	PERFORM fleet_webhook_event(NEW.entity,
		CASE WHEN NEW.status = 'provision_completed' THEN 'provisioning.succeeded' ELSE 'provisioning.failed' END,
		jsonb_build_object('session', NEW.id, 'device', NEW.device, 'status', NEW.status, 'error', NEW.error,
			'total_files', NEW.total_files, 'completed_files', NEW.completed_files, 'failed_files', NEW.failed_files));
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "provision_sessions_delivery" AFTER UPDATE OF "status" ON "provision_sessions"
	FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('provision_completed', 'provision_failed', 'timeout'))
	EXECUTE FUNCTION fleet_provision_delivery();
