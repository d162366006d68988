import { sql, type SQL } from 'drizzle-orm';

/** Who settled the rows: the device that replied, or the server (a timeout, an expiry). */
export type SettledBy = 'device' | 'system';

/**
 * The id of the request that sent command row `r` to its one device, from the send's entry
 * (audited-insert.ts): the settled entry and the settle's log line carry it, on whichever
 * instance the reply arrives. Null for bulk sends and rollouts, which write no such entry.
 * Found through the entries' target index (entity, target type and name: a device's few
 * entries). The command's id names its entry, so the action is not compared: with it, the
 * planner read the (entity, action) index instead and filtered every `firmware.send` entry of
 * the entity for each row (13,710 a row after one bulk DFU of 10,000 devices, 4.7–6.4 s for
 * a batch of 100 replies on PGlite under load 20, 57–190 ms this way; bench/notes/rollout-bench.md).
 */
const sentRequestId = sql`(select a.details->>'request_id' from audit_entries a
  where a.entity = r.entity and a.target_type = 'device' and a.target_name = r.device
    and a.details->>'phase' = 'sent' and a.details->>'command_id' = r.id::text
  order by a.at desc limit 1)`;

/**
 * An INSERT of one audit entry for each command row of `rows` (a CTE's name holding `commands`
 * rows as they settled): `command.send`, or `firmware.send` for a firmware update, naming the
 * device, with the outcome (success when it succeeded, else failure with the row's error).
 * Only the command's type, id, state and firmware version are kept: never its payload (a
 * firmware update's link is signed). docs/decisions/2026-11-26-command-outcomes-audited.md.
 */
export function outcomeEntriesOf(rows: SQL, by: SettledBy): SQL {
  const actor = by === 'device' ? sql`'device', r.device, r.device` : sql`'system', null, 'system'`;
  return sql`
    insert into audit_entries (entity, actor_kind, actor_id, actor_name, action, target_type, target_name,
      outcome, reason, details)
    select r.entity, ${actor},
      case when r.type = 'dfu' then 'firmware.send' else 'command.send' end, 'device', r.device,
      case when r.state = 'succeeded' then 'success' else 'failure' end,
      case when r.state = 'succeeded' then null else r.error end,
      jsonb_strip_nulls(jsonb_build_object('phase', 'settled', 'command', r.type, 'command_id', r.id,
        'state', r.state, 'version', case when r.type = 'dfu' then r.payload->>'version' end,
        'latency_ms', r.latency_ms, 'request_id', ${sentRequestId}))
    from ${rows} r
    returning target_name as device, details->>'command_id' as command_id, details->>'request_id' as request_id`;
}

/**
 * Runs `update` (an UPDATE of `commands`, without RETURNING) and records each row it settles
 * (outcomeEntriesOf) in the same statement, so a settled row never lacks its entry; answers the
 * settled rows, each with the `request_id` that sent it (null when none is known).
 */
export function settlingWithEntries(update: SQL, by: SettledBy): SQL {
  return sql`
    with settled as (${update} returning *),
    logged as (${outcomeEntriesOf(sql`settled`, by)})
    select settled.*, logged.request_id from settled left join logged
      on logged.command_id = settled.id::text and logged.device = settled.device`;
}
