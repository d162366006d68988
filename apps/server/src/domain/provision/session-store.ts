import { sql } from 'drizzle-orm';
import type { Counters, ProvisionEventName, ProvisionFileStatus, ProvisionSession } from '@fleet/shared/provision';
import type { Executor } from '../../db/client.ts';
import type { ProvisionBusEvent } from '../../lib/bus.ts';

/** Raw SQL answers rows as `{rows}` on both drivers. */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface SessionRow {
  id: string;
  entity: string;
  device: string;
  status: ProvisionSession['status'];
  error: string | null;
  started_by: string;
  prior_state: string | null;
  last_seq: number;
  device_seq: number;
  total_files: number;
  completed_files: number;
  failed_files: number;
  downloading_files: number;
  created_at: Date | string;
  heard_at: Date | string;
  ended_at: Date | string | null;
}

export interface FileRow {
  device_path: string;
  filename: string;
  status: ProvisionFileStatus;
  error: string | null;
}

/** What one event says beyond the session and its counters, which every event carries. */
export type EventBody = { event: ProvisionEventName; data: Record<string, unknown> & { message: string } };

export const countersOf = (s: SessionRow): Counters => ({
  total_files: Number(s.total_files),
  completed_files: Number(s.completed_files),
  failed_files: Number(s.failed_files),
  downloading_files: Number(s.downloading_files),
});

/** The open session `id` of `device`, locked until the transaction ends; null when it is not open. */
export async function lockOpenSession(tx: Executor, id: string, device: string): Promise<SessionRow | null> {
  const [row] = rowsOf<SessionRow>(
    await tx.execute(sql`
      select * from provision_sessions
      where id = ${id} and device = ${device} and ended_at is null
      for update`),
  );
  return row ?? null;
}

/** Counts the session's files again and stores the counters (and `patch`) on it; answers the row. */
export async function recount(
  tx: Executor,
  id: string,
  patch: { status?: string; error?: string | null; end?: boolean; heard?: boolean } = {},
): Promise<SessionRow> {
  const [row] = rowsOf<SessionRow>(
    await tx.execute(sql`
      with c as (
        select count(*) filter (where status = 'completed')::int as completed,
               count(*) filter (where status = 'failed')::int as failed,
               count(*) filter (where status = 'downloading')::int as downloading,
               count(*)::int as total
        from provision_files where session_id = ${id})
      update provision_sessions s set
        total_files = c.total, completed_files = c.completed, failed_files = c.failed,
        downloading_files = c.downloading,
        status = coalesce(${patch.status ?? null}::text, s.status),
        error = case when ${patch.error !== undefined} then ${patch.error ?? null}::text else s.error end,
        heard_at = case when ${patch.heard ?? false} then now() else s.heard_at end,
        ended_at = case when ${patch.end ?? false} then now() else s.ended_at end
      from c where s.id = ${id}
      returning s.*`),
  );
  return row!;
}

/**
 * Numbers and stores `events` after the session's last one; each carries the session, the device
 * and the counters of `session`. Answers them as the bus relays them.
 */
export async function appendEvents(
  tx: Executor,
  session: SessionRow,
  events: EventBody[],
): Promise<ProvisionBusEvent[]> {
  if (events.length === 0) return [];
  const [{ last_seq }] = rowsOf<{ last_seq: number }>(
    await tx.execute(sql`
      update provision_sessions set last_seq = last_seq + ${events.length}
      where id = ${session.id} returning last_seq`),
  ) as [{ last_seq: number }];
  const first = Number(last_seq) - events.length + 1;
  const out = events.map((e, i) => ({
    device: session.device,
    session_id: session.id,
    seq: first + i,
    event: e.event,
    data: { session_id: session.id, deviceId: session.device, ...countersOf(session), ...e.data },
  }));
  await tx.execute(sql`
    insert into provision_events (session_id, seq, event, data)
    select ${session.id}::uuid, v.seq, v.event, v.data
    from jsonb_to_recordset(${JSON.stringify(out)}::jsonb) as v(seq int, event text, data jsonb)`);
  return out;
}

/** Files still under way become failed with `error` (the session ended without them). */
export async function failUnfinished(tx: Executor, id: string, error: string): Promise<void> {
  await tx.execute(sql`
    update provision_files set status = 'failed', error = coalesce(error, ${error})
    where session_id = ${id} and status in ('pending', 'queued', 'downloading')`);
}

/** The device leaves provisioning: no current provision or download, its earlier state back. */
export async function releaseDevice(tx: Executor, session: SessionRow): Promise<void> {
  await tx.execute(sql`
    update devices set current_provision = null, current_download = null,
      state_current = case when state_current = 'PROVISIONING' then ${session.prior_state}::text else state_current end
    where name = ${session.device} and current_provision = ${session.id}`);
}

/** Events of session `id` after number `after`, in order. */
export async function eventsAfter(db: Executor, id: string, after: number): Promise<ProvisionBusEvent[]> {
  return rowsOf<ProvisionBusEvent>(
    await db.execute(sql`
      select s.device, e.session_id::text as session_id, e.seq, e.event, e.data
      from provision_events e join provision_sessions s on s.id = e.session_id
      where e.session_id = ${id} and e.seq > ${after}
      order by e.seq`),
  ).map((e) => ({ ...e, seq: Number(e.seq) }));
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A session as the API answers it (core §3): its files and its log. */
export async function presentSession(db: Executor, s: SessionRow): Promise<ProvisionSession> {
  const files = rowsOf<FileRow>(
    await db.execute(sql`
      select device_path, filename, status, error from provision_files
      where session_id = ${s.id} order by ord`),
  );
  const events = rowsOf<{ event: string; message: string }>(
    await db.execute(sql`
      select event, data->>'message' as message from provision_events
      where session_id = ${s.id} order by seq`),
  );
  return {
    deviceId: s.device,
    session_id: s.id,
    status: s.status,
    eventType: events.at(-1)?.event ?? 'provision_started',
    message: events.map((e) => e.message ?? e.event),
    errorMessage: s.error,
    ...countersOf(s),
    files: files.map((f) => ({ filename: f.filename, device_path: f.device_path, status: f.status, error: f.error })),
    started_by: s.started_by,
    created_at: iso(s.created_at)!,
    ended_at: iso(s.ended_at),
  };
}

/** The newest session of a device (open or not), or a named one of it; null when there is none. */
export async function findSession(db: Executor, device: string, id?: string): Promise<SessionRow | null> {
  const [row] = rowsOf<SessionRow>(
    await db.execute(
      id
        ? sql`select * from provision_sessions where device = ${device} and id = ${id}`
        : sql`select * from provision_sessions where device = ${device} order by created_at desc, id desc limit 1`,
    ),
  );
  return row ?? null;
}

/** Whether session `id` has ended (then all its events are stored). */
export async function sessionEnded(db: Executor, id: string): Promise<boolean> {
  const [row] = rowsOf<{ ended: boolean }>(
    await db.execute(sql`select ended_at is not null as ended from provision_sessions where id = ${id}`),
  );
  return row?.ended ?? true;
}
