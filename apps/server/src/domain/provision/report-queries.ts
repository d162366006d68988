import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { recordset, rowsOf } from '../../db/raw-sql.ts';
import { devices, provisionEvents, provisionFiles, provisionSessions } from '../../db/schema.ts';
import type { SessionChange } from './session-change.ts';
import type { FileState, SessionState, Step } from './session-machine.ts';
import type { SessionRow } from './session-store.ts';
import { recordSessionEnds, type EndedBy } from './record-ends.ts';

/** A file row as a flush reads it. */
export type FileRow = FileState & { ord: number };

/** A session's state from its row as raw SQL answers it (counters made numbers) and the files read of it. */
export const stateOf = (row: SessionRow, files: readonly FileState[]): SessionState => ({
  id: String(row.id),
  device: row.device,
  status: row.status,
  error: row.error,
  last_seq: Number(row.last_seq),
  device_seq: Number(row.device_seq),
  total_files: Number(row.total_files),
  completed_files: Number(row.completed_files),
  failed_files: Number(row.failed_files),
  downloading_files: Number(row.downloading_files),
  ended: row.ended_at !== null,
  files: files.map((f) => ({ device_path: f.device_path, filename: f.filename, status: f.status, error: f.error })),
});

/** An open session and all its files, unlocked (sole mode keeps it from here on); null when it is not open. */
export async function readOpenSession(db: Db, id: string): Promise<{ row: SessionRow; files: FileRow[] } | null> {
  const [row] = rowsOf<SessionRow>(
    await db.execute(sql`select * from provision_sessions where id = ${id} and ended_at is null`),
  );
  if (!row) return null;
  const files = rowsOf<FileRow>(
    await db.execute(sql`
      select device_path, filename, status, error, ord from provision_files where session_id = ${id} order by ord`),
  );
  return { row, files };
}

/** The open sessions among `ids`, locked in id order (so flushes of two instances cannot deadlock). */
export async function lockOpenSessions(tx: Executor, ids: string[]): Promise<SessionRow[]> {
  return rowsOf<SessionRow>(
    await tx.execute(sql`
      select * from provision_sessions
      where id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify([...ids].sort())}::jsonb) as v)
        and ended_at is null
      order by id
      for update`),
  );
}

/** Which files a flush reads: every file of some sessions, the unfinished ones of others, and named ones. */
export interface FilesWanted {
  whole: string[];
  unfinished: string[];
  named: Array<{ session_id: string; device_path: string }>;
}

/** The files `wanted` names, each with its session, in order. */
export async function readFiles(tx: Executor, wanted: FilesWanted): Promise<Array<FileRow & { session_id: string }>> {
  const named = recordset(wanted.named, { table: provisionFiles, columns: ['session_id', 'device_path'] });
  return rowsOf<FileRow & { session_id: string }>(
    await tx.execute(sql`
      select f.session_id::text as session_id, f.device_path, f.filename, f.status, f.error, f.ord
      from provision_files f
      where f.session_id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(wanted.whole)}::jsonb) as v)
        or f.session_id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(wanted.unfinished)}::jsonb) as v)
          and f.status not in ('completed', 'failed')
        or (f.session_id, f.device_path) in (
          select v.session_id, v.device_path from ${named})
      order by f.session_id, f.ord`),
  );
}

/**
 * Writes what the state machine decided for `changes` in one statement: their files, sessions
 * (heard and ended now), devices (download line, or released when the session ended) and events;
 * then the audit entry of each session that ended, by `endedBy` (record-ends.ts).
 */
export async function saveChanges(tx: Executor, changes: SessionChange[], endedBy: EndedBy = 'device'): Promise<void> {
  const fileRows = changes.flatMap((c) =>
    [...c.files.values()].map((f) => ({
      session_id: c.state.id,
      device_path: f.device_path,
      status: f.status,
      error: f.error,
    })),
  );
  const sessionRows = changes.map(({ state: s, heard, ended }) => ({
    id: s.id,
    status: s.status,
    error: s.error,
    last_seq: s.last_seq,
    device_seq: s.device_seq,
    total_files: s.total_files,
    completed_files: s.completed_files,
    failed_files: s.failed_files,
    downloading_files: s.downloading_files,
    heard,
    ended,
  }));
  const deviceRows = changes
    .filter((c) => c.ended || c.download !== undefined)
    .map((c) => ({
      name: c.state.device,
      session_id: c.state.id,
      release: c.ended,
      download: c.ended ? null : (c.download ?? null),
      prior_state: c.prior_state,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const eventRows = changes.flatMap((c) =>
    c.events.map((e) => ({ session_id: e.session_id, seq: e.seq, event: e.event, data: e.data })),
  );
  const fileSet = recordset(fileRows, {
    table: provisionFiles,
    columns: ['session_id', 'device_path', 'status', 'error'],
  });
  const sessionSet = recordset(sessionRows, {
    table: provisionSessions,
    columns: [
      'id',
      'status',
      'error',
      'last_seq',
      'device_seq',
      'total_files',
      'completed_files',
      'failed_files',
      'downloading_files',
    ],
    extra: { heard: 'boolean', ended: 'boolean' },
  });
  // Compared with devices.current_provision, which is text.
  const deviceSet = recordset(deviceRows, {
    table: devices,
    columns: ['name'],
    extra: { session_id: 'text', release: 'boolean', download: 'text', prior_state: 'text' },
  });
  const eventSet = recordset(eventRows, { table: provisionEvents, columns: ['session_id', 'seq', 'event', 'data'] });
  await tx.execute(sql`
    with f as (
      update provision_files f set status = v.status, error = v.error
      from ${fileSet}
      where f.session_id = v.session_id and f.device_path = v.device_path
      returning 1),
    s as (
      update provision_sessions s set
        status = v.status, error = v.error, last_seq = v.last_seq, device_seq = v.device_seq,
        total_files = v.total_files, completed_files = v.completed_files, failed_files = v.failed_files,
        downloading_files = v.downloading_files,
        heard_at = case when v.heard then now() else s.heard_at end,
        ended_at = case when v.ended then now() else s.ended_at end
      from ${sessionSet}
      where s.id = v.id
      returning 1),
    d as (
      update devices d set
        current_download = v.download,
        current_provision = case when v.release then null else d.current_provision end,
        state_current = case when v.release and d.state_current = 'PROVISIONING' then v.prior_state
          else d.state_current end
      from ${deviceSet}
      where d.name = v.name and d.current_provision = v.session_id
      returning 1),
    e as (
      insert into provision_events (session_id, seq, event, data)
      select v.session_id, v.seq, v.event, v.data
      from ${eventSet}
      returning 1)
    select (select count(*) from f) as files, (select count(*) from s) as sessions,
           (select count(*) from d) as devices, (select count(*) from e) as events`);
  await recordSessionEnds(
    tx,
    changes.filter((c) => c.ended).map((c) => c.state.id),
    endedBy,
  );
}

/**
 * Stores a session the state machine started (startSession): the session row with its files, the
 * device marked as provisioning, and the first event. A device with a session open already makes
 * the insert fail with a unique violation. Answers the session row.
 */
export async function insertSession(
  tx: Executor,
  started: Step,
  extra: { entity: string; started_by: string; prior_state: string | null },
  files: ReadonlyArray<{ id: string; filename: string; device_path: string }>,
): Promise<SessionRow> {
  const s = started.state;
  const [row] = rowsOf<SessionRow>(
    await tx.execute(sql`
      insert into provision_sessions (id, entity, device, status, started_by, prior_state, last_seq, total_files)
      values (${s.id}, ${extra.entity}, ${s.device}, ${s.status}, ${extra.started_by}, ${extra.prior_state},
        ${s.last_seq}, ${s.total_files})
      returning *`),
  );
  const fileSet = recordset(
    files.map((f, ord) => ({ ...f, ord })),
    { table: provisionFiles, columns: ['device_path', 'filename', 'ord'], extra: { id: 'uuid' } },
  );
  await tx.execute(sql`
    insert into provision_files (session_id, device_path, filename, file_id, status, ord)
    select ${s.id}::uuid, v.device_path, v.filename, v.id, 'pending', v.ord
    from ${fileSet}`);
  await tx.execute(sql`
    update devices set current_provision = ${s.id}, current_download = null, state_current = 'PROVISIONING'
    where name = ${s.device}`);
  await tx.execute(sql`
    insert into provision_events (session_id, seq, event, data)
    select ${s.id}::uuid, v.seq, v.event, v.data
    from ${recordset(started.events, { table: provisionEvents, columns: ['seq', 'event', 'data'] })}`);
  return row!;
}
