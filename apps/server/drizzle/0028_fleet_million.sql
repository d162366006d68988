-- The fleet health figures of now kept as the devices change (issue 27: at 1,000,000 devices the
-- whole fleet's figures were one scan of every device, 2.7 s on PGlite; docs/decisions/
-- 2026-11-28-fleet-counts.md). Hand-written. `fleet_counts` holds signed counts per entity and
-- dimension: statement triggers on devices add +1 for what a row is after the statement and -1 for
-- what it was (one grouped insert a statement, nothing when no counted field moved), so writers
-- only insert and never wait on each other; the history sweep folds the rows into one per key.
-- A figure is the sum of its key's rows. Dimensions: total; online; never (a last sign of life
-- equal to the registration); high, medium, low (battery bands on the shared thresholds, 75 and
-- 50, as in device-filter.ts); charging (charging with a battery); state (a = state_current);
-- fw (a = manufacturing_type, b = fw_version). Unresponsive depends on the clock and is counted
-- from the devices' (entity, updated_at) index when read.
CREATE TABLE "fleet_counts" (
	"entity" text NOT NULL,
	"dim" text NOT NULL,
	"a" text,
	"b" text,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fleet_counts_entity_idx" ON "fleet_counts" USING btree ("entity");
--> statement-breakpoint
-- The dimensions one device counts in: $1 online, $2 never seen, $3 battery, $4 charging, $5 state,
-- $6 type, $7 firmware version. One SELECT, so the planner inlines it.
CREATE FUNCTION "fleet_count_dims"(boolean, boolean, smallint, boolean, text, text, text)
RETURNS TABLE (dim text, a text, b text) AS $$
	SELECT x.dim, x.a, x.b FROM (VALUES
		('total', NULL::text, NULL::text, true),
		('online', NULL, NULL, $1),
		('never', NULL, NULL, $2),
		(CASE WHEN $3 > 75 THEN 'high' WHEN $3 > 50 THEN 'medium' ELSE 'low' END, NULL, NULL, $3 IS NOT NULL),
		('charging', NULL, NULL, $4 AND $3 IS NOT NULL),
		('state', $5, NULL, true),
		('fw', $6, $7, true)
	) AS x(dim, a, b, keep) WHERE x.keep
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
CREATE FUNCTION "fleet_counts_inserted"() RETURNS trigger AS $$
BEGIN
	INSERT INTO fleet_counts (entity, dim, a, b, n)
	SELECT d.entity, x.dim, x.a, x.b, count(*)::int FROM new_devices d, fleet_count_dims(d.online,
		d.updated_at = d.created_at, d.battery, d.is_charging, d.state_current, d.manufacturing_type, d.fw_version) x
	GROUP BY 1, 2, 3, 4;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION "fleet_counts_deleted"() RETURNS trigger AS $$
BEGIN
	INSERT INTO fleet_counts (entity, dim, a, b, n)
	SELECT d.entity, x.dim, x.a, x.b, -count(*)::int FROM old_devices d, fleet_count_dims(d.online,
		d.updated_at = d.created_at, d.battery, d.is_charging, d.state_current, d.manufacturing_type, d.fw_version) x
	GROUP BY 1, 2, 3, 4;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Only the rows whose counted fields moved (a sign of life moves updated_at alone, the common case).
CREATE FUNCTION "fleet_counts_updated"() RETURNS trigger AS $$
BEGIN
	INSERT INTO fleet_counts (entity, dim, a, b, n)
	SELECT c.entity, c.dim, c.a, c.b, sum(c.delta)::int
	FROM old_devices o JOIN new_devices w ON w.name = o.name, LATERAL (
		SELECT o.entity, x.dim, x.a, x.b, -1 AS delta FROM fleet_count_dims(o.online, o.updated_at = o.created_at,
			o.battery, o.is_charging, o.state_current, o.manufacturing_type, o.fw_version) x
		UNION ALL
		SELECT w.entity, x.dim, x.a, x.b, 1 FROM fleet_count_dims(w.online, w.updated_at = w.created_at,
			w.battery, w.is_charging, w.state_current, w.manufacturing_type, w.fw_version) x
	) c
	WHERE o.entity IS DISTINCT FROM w.entity OR o.online IS DISTINCT FROM w.online
		OR (o.updated_at = o.created_at) IS DISTINCT FROM (w.updated_at = w.created_at)
		OR (o.battery > 75) IS DISTINCT FROM (w.battery > 75) OR (o.battery > 50) IS DISTINCT FROM (w.battery > 50)
		OR o.is_charging IS DISTINCT FROM w.is_charging OR o.state_current IS DISTINCT FROM w.state_current
		OR o.manufacturing_type IS DISTINCT FROM w.manufacturing_type OR o.fw_version IS DISTINCT FROM w.fw_version
	GROUP BY 1, 2, 3, 4 HAVING sum(c.delta) <> 0;
	RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "devices_counts_inserted" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS new_devices
	FOR EACH STATEMENT EXECUTE FUNCTION fleet_counts_inserted();
--> statement-breakpoint
CREATE TRIGGER "devices_counts_deleted" AFTER DELETE ON "devices" REFERENCING OLD TABLE AS old_devices
	FOR EACH STATEMENT EXECUTE FUNCTION fleet_counts_deleted();
--> statement-breakpoint
CREATE TRIGGER "devices_counts_updated" AFTER UPDATE ON "devices" REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
	FOR EACH STATEMENT EXECUTE FUNCTION fleet_counts_updated();
--> statement-breakpoint
-- The devices there are now.
INSERT INTO fleet_counts (entity, dim, a, b, n)
SELECT d.entity, x.dim, x.a, x.b, count(*)::int FROM devices d, fleet_count_dims(d.online,
	d.updated_at = d.created_at, d.battery, d.is_charging, d.state_current, d.manufacturing_type, d.fw_version) x
GROUP BY 1, 2, 3, 4;
