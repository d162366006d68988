import { sql, type SQL } from 'drizzle-orm';
import type { Timeline, TimelineItem, TimelineQuery } from '@fleet/shared/schemas/telemetry';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

interface Row {
  at: string | Date;
  type: TimelineItem['type'];
  data: Record<string, unknown> | string;
}

/**
 * The sources of a device's timeline, each answering `at, type, data` newest first, at most
 * `limit`, before `before`: what the history, commands, provisioning sessions, allocations and the
 * audit log already record. Every one is read by the device's entity as well as its name.
 */
function sources(entity: string, device: string, before: SQL, limit: number): SQL[] {
  return [
    sql`select at, case kind when 'change' then 'state' else kind end as type,
        jsonb_build_object('state', state, 'battery', battery, 'is_charging', is_charging,
          'fw_version', fw_version, 'device_at', device_at) as data
      from device_telemetry
      where entity = ${entity} and device = ${device} and at < ${before} and kind <> 'report'
      order by at desc limit ${limit}`,
    // Allocations and returns are their own source; a firmware update's URL (signed) is never shown.
    sql`select created_at as at, case type when 'dfu' then 'firmware_update' else 'command' end as type,
        jsonb_strip_nulls(jsonb_build_object('id', id, 'command', type, 'state', state, 'error', error,
          'sent_by', sent_by, 'replied_at', replied_at, 'version', payload->>'version')) as data
      from commands
      where device = ${device} and entity = ${entity} and created_at < ${before} and type not in ('allocate', 'return')
      order by created_at desc limit ${limit}`,
    sql`select created_at as at, 'provisioning' as type,
        jsonb_build_object('id', id, 'status', status, 'error', error, 'started_by', started_by,
          'ended_at', ended_at, 'total_files', total_files, 'completed_files', completed_files,
          'failed_files', failed_files) as data
      from provision_sessions
      where device = ${device} and entity = ${entity} and created_at < ${before}
      order by created_at desc limit ${limit}`,
    sql`select allocated_at as at, 'allocation' as type,
        jsonb_build_object('id', id, 'kiosk', kiosk, 'dispenser', dispenser, 'allocated_by', allocated_by,
          'outcome', outcome) as data
      from allocations
      where device = ${device} and entity = ${entity} and allocated_at < ${before}
      order by allocated_at desc limit ${limit}`,
    sql`select returned_at as at, 'return' as type,
        jsonb_build_object('id', id, 'returned_to', returned_to, 'returned_by', returned_by) as data
      from allocations
      where device = ${device} and entity = ${entity} and returned_at < ${before}
      order by returned_at desc limit ${limit}`,
    // Audit entries naming the device (docs/audit.md); their before/after stay on the audit screen.
    // What the sources above show already is left out (a command and its outcome, a session, an
    // allocation or return); a refused attempt, which left no row there, stays.
    sql`select at, 'audit' as type,
        jsonb_strip_nulls(jsonb_build_object('action', action, 'actor', actor_name, 'actor_kind', actor_kind,
          'outcome', outcome, 'reason', reason)) as data
      from audit_entries
      where entity = ${entity} and target_type = 'device' and target_name = ${device} and at < ${before}
        and not ((action in ('command.send', 'firmware.send') and details->>'phase' is not null)
          or action = 'provision.end'
          or (action in ('provision.start', 'provision.cancel', 'allocation.create', 'allocation.return')
            and outcome = 'success')
          or (action = 'allocation.create' and reason like 'Refused by the device:%'))
      order by at desc limit ${limit}`,
  ];
}

const msOf = (at: string | Date) => new Date(at).getTime();
/** Events of one millisecond a page grows to hold at most. */
const MAX_SAME_MS = 10_000;

/**
 * A device's timeline, newest first: the `limit` newest events of every source before `before`,
 * merged. A page never splits one millisecond: when the events past the page share the last
 * one's millisecond, those of that millisecond move to the next page (or, when they are the whole
 * page, the page grows to hold them all), so `next_before` (exclusive) loses none.
 */
export async function deviceTimeline(
  db: Db,
  device: { entity: string; name: string },
  query: TimelineQuery,
): Promise<Timeline> {
  const read = async (before: string, limit: number) => {
    const parts = sources(device.entity, device.name, sql`${before}::timestamptz`, limit).map((q) => sql`(${q})`);
    return rowsOf<Row>(
      await db.execute(sql`select * from (${sql.join(parts, sql` union all `)}) t order by at desc limit ${limit}`),
    );
  };
  const rows = await read(query.before ?? 'infinity', query.limit + 1);
  let page = rows.slice(0, query.limit);
  const more = rows.length > query.limit;
  const edge = more ? msOf(rows[query.limit]!.at) : NaN;
  if (more && msOf(page[page.length - 1]!.at) === edge) {
    const whole = page.filter((r) => msOf(r.at) !== edge);
    // The page is all one millisecond: it grows to the whole of it instead.
    page =
      whole.length > 0
        ? whole
        : (await read(new Date(edge + 1).toISOString(), MAX_SAME_MS)).filter((r) => msOf(r.at) === edge);
  }
  const data = page.map((r) => ({
    at: new Date(r.at).toISOString(),
    type: r.type,
    data: typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data,
  }));
  const last = data[data.length - 1];
  return { data, next_before: more && last ? last.at : null };
}
