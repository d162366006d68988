import { sql, type SQL } from 'drizzle-orm';

/** Who settled the rows: the device that replied, or the server (a timeout, an expiry). */
export type SettledBy = 'device' | 'system';

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
        'latency_ms', r.latency_ms))
    from ${rows} r`;
}

/**
 * Runs `update` (an UPDATE of `commands`, without RETURNING) and records each row it settles
 * (outcomeEntriesOf) in the same statement, so a settled row never lacks its entry; answers the
 * settled rows.
 */
export function settlingWithEntries(update: SQL, by: SettledBy): SQL {
  return sql`
    with settled as (${update} returning *),
    logged as (${outcomeEntriesOf(sql`settled`, by)})
    select * from settled`;
}
