-- Alert events written per statement, not per row (issue 29: the API's share of the embedded database
-- during an alert burst; docs/decisions/2026-11-28-alert-burst-interleaving.md). 0019's row trigger
-- ran three statements for every alert a statement moved: a sweep raising 5,000 alerts ran 15,000 on
-- PGlite's one connection. These statement triggers write the same outbox rows (webhook deliveries
-- with the same bodies, alert e-mails) from the statement's transition tables, one insert each.
-- Hand-written.
CREATE FUNCTION "fleet_alert_events"(p_ids uuid[], p_types text[]) RETURNS void AS $$
	-- The alerts as the statement left them (an AFTER trigger reads its own statement's rows), one
	-- event id each, shared by the webhooks that take it.
	WITH m AS (
		SELECT a, x.t, r, gen_random_uuid() AS event_id
		FROM unnest(p_ids, p_types) AS x(id, t) JOIN alerts a ON a.id = x.id JOIN alert_rules r ON r.id = a.rule_id),
	hooks AS (
		INSERT INTO webhook_deliveries (webhook_id, entity, event_id, event_type, body)
		SELECT w.id, w.entity, m.event_id, m.t, jsonb_build_object('id', m.event_id, 'type', m.t, 'entity', w.entity,
			'occurred_at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
			-- Every column of the alert (a rollout's alert names its rollout), with its rule's name, kind, severity.
			'data', (to_jsonb(m.a) - 'condition_ended_at')
				|| jsonb_build_object('rule_name', (m.r).name, 'kind', (m.r).kind, 'severity', (m.r).severity))::text
		FROM m JOIN webhooks w ON w.entity = (m.a).entity AND w.enabled AND m.t = ANY (w.events)
		WHERE (m.r).webhook
		ORDER BY (m.a).raised_at, (m.a).device)
	INSERT INTO alert_emails (entity, rule_id, alert_id)
	SELECT (m.a).entity, (m.a).rule_id, (m.a).id FROM m
	WHERE m.t = 'alert.raised' AND cardinality((m.r).email_to) > 0
$$ LANGUAGE sql;
--> statement-breakpoint
CREATE FUNCTION "fleet_alerts_inserted"() RETURNS trigger AS $$
BEGIN
	PERFORM fleet_alert_events(array_agg(n.id), array_agg('alert.raised'::text))
	FROM new_alerts n WHERE n.status = 'active' HAVING count(*) > 0;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION "fleet_alerts_updated"() RETURNS trigger AS $$
BEGIN
	PERFORM fleet_alert_events(array_agg(m.id), array_agg(m.t)) FROM (
		SELECT n.id, CASE
			WHEN n.status = 'active' AND o.status = 'pending' THEN 'alert.raised'
			WHEN n.status = 'acknowledged' AND o.status = 'active' THEN 'alert.acknowledged'
			WHEN n.status = 'cleared' AND o.status IN ('active', 'acknowledged') THEN 'alert.cleared' END AS t
		FROM new_alerts n JOIN old_alerts o ON o.id = n.id WHERE n.status IS DISTINCT FROM o.status) m
	WHERE m.t IS NOT NULL HAVING count(*) > 0;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "alerts_delivery" ON "alerts";
--> statement-breakpoint
DROP FUNCTION "fleet_alert_delivery"();
--> statement-breakpoint
CREATE TRIGGER "alerts_delivery_inserted" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_alerts
	FOR EACH STATEMENT EXECUTE FUNCTION fleet_alerts_inserted();
--> statement-breakpoint
-- A column list (UPDATE OF status) cannot have transition tables: every update of alerts runs it,
-- and it finds nothing to do unless a status moved.
CREATE TRIGGER "alerts_delivery_updated" AFTER UPDATE ON "alerts" REFERENCING OLD TABLE AS old_alerts NEW TABLE AS new_alerts
	FOR EACH STATEMENT EXECUTE FUNCTION fleet_alerts_updated();
--> statement-breakpoint
-- The alert list, newest raised first, read in the index's order with its tiebreak: the alerts of a
-- burst share a handful of raised_at values, and sorting 10,000 of them for every page was most of
-- the list's time during a burst.
DROP INDEX "alerts_entity_raised_idx";
--> statement-breakpoint
CREATE INDEX "alerts_entity_raised_idx" ON "alerts" USING btree ("entity","raised_at" DESC NULLS LAST,"id" DESC) WHERE "status" <> 'pending';
--> statement-breakpoint
-- The delivery worker's claim, oldest first, read in the index's order (not 10,000 due rows sorted for 50).
DROP INDEX "webhook_deliveries_due_idx";
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","created_at") WHERE "status" = 'pending';
