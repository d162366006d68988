import { sql } from 'drizzle-orm';
import { MIN_UNRESPONSIVE_MINUTES } from '@fleet/shared/schemas/alert';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

/**
 * Whether each enabled rule of the devices' entities holds for each named device in its scope, as
 * rows (rule, device, hit, what the device shows). Only the named devices are read: evaluation
 * follows the devices a flush changed, never the whole fleet.
 */
const matches = (names: string[], now: Date) => sql`
  select r.id as rule_id, d.name as device, d.entity, r.start_delay_s, r.clear_delay_s,
    coalesce(case r.kind
      when 'unresponsive' then d.updated_at <= ${now.toISOString()}::timestamptz
        - make_interval(mins => greatest(r.threshold, ${MIN_UNRESPONSIVE_MINUTES}))
      when 'battery_low' then d.battery <= r.threshold and d.is_charging is not true
      when 'device_error' then d.state_current in ('ERROR', 'DEFECT')
    end, false) as hit,
    jsonb_build_object('battery', d.battery, 'is_charging', d.is_charging, 'state', d.state_current,
      'last_seen', d.updated_at) as detail
  from devices d
  join alert_rules r on r.entity = d.entity and r.enabled
  left join groups g on g.entity = d.entity and g.name = d."group"
  where d.name in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))
    and (r.scope = 'entity' or r.scope = 'group' and d."group" = r.scope_name
      or r.scope = 'site' and g.site = r.scope_name)`;

/**
 * Moves the alerts of the named devices with what their rules say now: a condition that begins
 * opens an alert (pending while its start delay runs, active at once without one); one that ends
 * drops a pending alert, and starts the clear delay of an open one (or clears it at once); one
 * that holds again before its clear delay passed keeps the alert open. The unique open index makes
 * two instances evaluating the same device at once open one alert. Answers the entities whose
 * alerts changed.
 */
export async function evaluateDevices(db: Db, names: string[], now: Date): Promise<string[]> {
  if (names.length === 0) return [];
  const at = now.toISOString();
  const result = await db.execute(sql`
    with m as (${matches(names, now)}),
    opened as (
      insert into alerts (entity, rule_id, device, status, condition_since, raised_at, detail)
      select m.entity, m.rule_id, m.device,
        case when m.start_delay_s = 0 then 'active' else 'pending' end, ${at}::timestamptz,
        case when m.start_delay_s = 0 then ${at}::timestamptz end, m.detail
      from m where m.hit
      on conflict (rule_id, device) where status <> 'cleared' do nothing
      returning entity),
    held as (
      update alerts a set condition_ended_at = null
      from m where m.hit and a.rule_id = m.rule_id and a.device = m.device
        and a.status in ('active', 'acknowledged') and a.condition_ended_at is not null
      returning a.entity),
    dropped as (
      delete from alerts a using m
      where not m.hit and a.rule_id = m.rule_id and a.device = m.device and a.status = 'pending'
      returning a.entity),
    ended as (
      update alerts a set
        condition_ended_at = ${at}::timestamptz,
        status = case when m.clear_delay_s = 0 then 'cleared' else a.status end,
        cleared_at = case when m.clear_delay_s = 0 then ${at}::timestamptz end,
        cleared_by = case when m.clear_delay_s = 0 then 'condition' end
      from m where not m.hit and a.rule_id = m.rule_id and a.device = m.device
        and a.status in ('active', 'acknowledged') and a.condition_ended_at is null
      returning a.entity, a.status)
    select distinct entity from (
      select entity from opened union all select entity from held
      union all select entity from ended where status = 'cleared') changed`);
  return rowsOf<{ entity: string }>(result).map((r) => r.entity);
}
