import { sql } from 'drizzle-orm';
import type { Counters, ProvisionFileStatus, ProvisionSession } from '@fleet/shared/provision';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { ProvisionBusEvent } from '../../lib/bus.ts';

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

/** Open sessions that heard nothing from their device for `timeoutMs`. */
export async function staleSessions(
  db: Executor,
  timeoutMs: number,
): Promise<Array<{ id: string; device: string; entity: string }>> {
  return rowsOf<{ id: string; device: string; entity: string }>(
    await db.execute(sql`
      select id, device, entity from provision_sessions
      where ended_at is null and heard_at < now() - make_interval(secs => ${timeoutMs / 1000})`),
  );
}

/** Whether session `id` has ended (then all its events are stored). */
export async function sessionEnded(db: Executor, id: string): Promise<boolean> {
  const [row] = rowsOf<{ ended: boolean }>(
    await db.execute(sql`select ended_at is not null as ended from provision_sessions where id = ${id}`),
  );
  return row?.ended ?? true;
}
