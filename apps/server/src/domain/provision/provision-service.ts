import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import {
  PROVISION_TEXTS,
  type ProvisionCancel,
  type ProvisionCommand,
  type ProvisionDeviceEvent,
  type ProvisionSession,
} from '@fleet/shared/provision';
import { topics } from '@fleet/shared/protocol';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db, Executor } from '../../db/client.ts';
import type { Bus, ProvisionBusEvent } from '../../lib/bus.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { DeviceLink } from '../../mqtt/device-link.ts';
import type { DownloadSigner } from '../../storage/signed-urls.ts';
import { filesForDevice } from './files-for-device.ts';
import {
  appendEvents,
  failUnfinished,
  findSession,
  lockOpenSession,
  presentSession,
  recount,
  releaseDevice,
  rowsOf,
  type EventBody,
  type SessionRow,
} from './session-store.ts';

interface Options {
  db: Db;
  bus: Bus;
  link: DeviceLink;
  downloads: DownloadSigner;
  timeoutMs: number;
  onError(err: unknown, what: string): void;
}

/** A report that arrived before one it follows waits up to EARLY_RETRIES × EARLY_WAIT_MS (3 s) for it. */
const EARLY_RETRIES = 120;
const EARLY_WAIT_MS = 25;

/** A file's statuses in order: a report may only move a file forward (a repeat changes nothing). */
const FILE_RANK = (status: SQL) =>
  sql`(case ${status} when 'pending' then 0 when 'queued' then 1 when 'downloading' then 2 else 3 end)`;

/** How long a provision command's links stay valid beyond the session's silence limit. */
const LINK_VALID_MS = 60 * 60_000;

/**
 * Provisioning sessions (core §4, docs/device-protocol.md "Provisioning"): every change is one
 * transaction on the session row (locked), so events are numbered without gaps whichever
 * instance hears the device; each stored event then goes out on the bus to the event streams.
 */
export class ProvisionService {
  constructor(private readonly o: Options) {}

  /** Starts a session: the device gets its files' signed links; answers the new session. */
  async start(actor: AccessClaims, entity: string, device: string, base: string): Promise<ProvisionSession> {
    const { db } = this.o;
    const [dev] = rowsOf<{ name: string; state_current: string | null; updated_at: Date | string; online: boolean }>(
      await db.execute(sql`
        select name, state_current, updated_at, online from devices where name = ${device} and entity = ${entity}`),
    );
    if (!dev) throw notFound('Device');
    if (Date.now() - new Date(dev.updated_at).getTime() > UNRESPONSIVE_AFTER_MS)
      throw new HttpError(409, `Device ${device} is unresponsive`, 'No word from the device for over 20 minutes');
    if (!dev.online)
      throw new HttpError(409, `Device ${device} is not connected`, 'Provisioning needs the device connected');
    const files = await filesForDevice(db, entity, device);
    if (files.length === 0)
      throw new HttpError(
        409,
        `No files to provision for device ${device}`,
        'Upload files at entity, site or group level',
      );
    const id = randomUUID();
    let session: SessionRow;
    let out: ProvisionBusEvent[];
    try {
      ({ session, out } = await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into provision_sessions (id, entity, device, status, started_by, prior_state)
          values (${id}, ${entity}, ${device}, 'provision_started', ${actor.sub}, ${dev.state_current})`);
        await tx.execute(sql`
          insert into provision_files (session_id, device_path, filename, file_id, status, ord)
          select ${id}::uuid, v.device_path, v.filename, v.id, 'pending', v.ord
          from jsonb_to_recordset(${JSON.stringify(files.map((f, ord) => ({ ...f, ord })))}::jsonb)
            as v(device_path text, filename text, id uuid, ord int)`);
        await tx.execute(sql`
          update devices set current_provision = ${id}, current_download = null, state_current = 'PROVISIONING'
          where name = ${device}`);
        const s = await recount(tx, id);
        const list = files.map((f) => ({ filename: f.filename, device_path: f.device_path, status: 'pending' }));
        const started: EventBody = {
          event: 'provision_started',
          data: {
            status: 'provision_started',
            files: list,
            total: files.length,
            message: `Provisioning started by ${actor.sub}: ${files.length} file${files.length === 1 ? '' : 's'}`,
          },
        };
        return { session: s, out: await appendEvents(tx, s, [started]) };
      }));
    } catch (err) {
      if (isUniqueViolation(err))
        throw new HttpError(409, `Device ${device} is already being provisioned`, 'Cancel the running session first');
      throw err;
    }
    await this.relay(out);
    const until = new Date(Date.now() + LINK_VALID_MS + this.o.timeoutMs);
    const command: ProvisionCommand = {
      id,
      type: 'provision',
      payload: {
        session_id: id,
        files: files.map((f) => ({
          filename: f.filename,
          url: new URL(this.o.downloads.path('file', f.id, until), base).toString(),
          sha256: f.sha256,
          size: f.size,
          device_path: f.device_path,
        })),
      },
      expires_at: until.toISOString(),
    };
    try {
      await this.o.link.publish(topics.deviceCommands(entity, device), command);
    } catch (err) {
      this.o.onError(err, 'publishing a provision command');
      await this.end(id, device, 'provision_failed', 'The device could not be reached');
    }
    return presentSession(db, session);
  }

  /** `…/cancel`: tells the device and ends the open session. */
  async cancel(actor: AccessClaims, entity: string, device: string): Promise<ProvisionSession> {
    const { db } = this.o;
    const [dev] = rowsOf<{ name: string }>(
      await db.execute(sql`select name from devices where name = ${device} and entity = ${entity}`),
    );
    if (!dev) throw notFound('Device');
    const open = await findSession(db, device);
    if (!open || open.ended_at !== null)
      throw new HttpError(409, `Device ${device} is not being provisioned`, 'No open provisioning session');
    const ended = await this.end(open.id, device, 'cancelled', `${PROVISION_TEXTS.cancelled} by ${actor.sub}`);
    if (!ended) throw new HttpError(409, `Device ${device} is not being provisioned`, 'The session had already ended');
    const message: ProvisionCancel = {
      id: randomUUID(),
      type: 'provision_cancel',
      payload: { session_id: open.id },
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    };
    await this.o.link
      .publish(topics.deviceCommands(entity, device), message)
      .catch((err) => this.o.onError(err, 'publishing a provision cancel'));
    return presentSession(db, ended);
  }

  /** The newest session of a device of the entity; 404 when it has none. */
  async latest(entity: string, device: string): Promise<ProvisionSession> {
    const { db } = this.o;
    const [dev] = rowsOf<{ name: string }>(
      await db.execute(sql`select name from devices where name = ${device} and entity = ${entity}`),
    );
    if (!dev) throw notFound('Device');
    const s = await findSession(db, device);
    if (!s) throw notFound('Provisioning session');
    return presentSession(db, s);
  }

  /** Reports of each device, handled one after another in the order they arrived here. */
  private readonly queues = new Map<string, Promise<void>>();

  /** A device's report on `…/events`; reports of a session that is not open are ignored. */
  onDeviceEvent(device: string, e: ProvisionDeviceEvent, attempt = 0): Promise<void> {
    const next = (this.queues.get(device) ?? Promise.resolve()).then(() => this.apply(device, e, attempt));
    const tail = next.catch(() => undefined);
    this.queues.set(device, tail);
    void tail.then(() => this.queues.get(device) === tail && this.queues.delete(device));
    return next;
  }

  /**
   * Applies a report in the device's order. One that arrived before a report it follows goes to
   * the back of the queue for a moment (the missing one may be behind it here, or on another
   * instance); after EARLY_RETRIES tries it is applied anyway.
   */
  private async apply(device: string, e: ProvisionDeviceEvent, attempt: number): Promise<void> {
    const out = await this.o.db.transaction(async (tx) => {
      const open = await lockOpenSession(tx, e.session_id, device);
      if (!open) return [];
      if (e.n !== undefined) {
        if (e.n <= open.device_seq) return this.heard(tx, open);
        if (e.n > open.device_seq + 1 && attempt < EARLY_RETRIES) return null;
        // A file report (the frequent one) records its number in its own statement.
        if (e.phase !== 'file')
          await tx.execute(sql`update provision_sessions set device_seq = ${e.n} where id = ${open.id}`);
      }
      return this.applyReport(tx, open, e);
    });
    if (out) return this.relay(out);
    const retry = setTimeout(() => {
      this.onDeviceEvent(device, e, attempt + 1).catch((err) => this.o.onError(err, 'applying a device report'));
    }, EARLY_WAIT_MS);
    retry.unref();
  }

  private async applyReport(tx: Executor, open: SessionRow, e: ProvisionDeviceEvent): Promise<ProvisionBusEvent[]> {
    {
      switch (e.phase) {
        case 'ready': {
          // Said again (a redelivery): heard, nothing new.
          if (open.status !== 'provision_started') return this.heard(tx, open);
          const s = await recount(tx, open.id, { status: 'in_progress', heard: true });
          return appendEvents(tx, s, [
            { event: 'provisioning_ready', data: { status: 'in_progress', message: 'The device is ready' } },
          ]);
        }
        case 'file':
          return this.fileChanged(tx, open, e);
        case 'finalizing': {
          const s = await recount(tx, open.id, { status: 'provision_finalizing', heard: true });
          return appendEvents(tx, s, [
            { event: 'provision_finalizing', data: { status: 'provision_finalizing', message: 'Finalizing' } },
          ]);
        }
        case 'completed':
          return this.completed(tx, open, e.results ?? []);
        case 'failed':
          return this.failed(
            tx,
            open,
            'provision_failed',
            e.error ?? 'The device reported a failure',
            'provision_failed',
          );
      }
    }
  }

  /** Ends open sessions that heard nothing for the timeout with a `timeout` event (any instance may). */
  async sweep(): Promise<void> {
    const stale = rowsOf<{ id: string; device: string; entity: string }>(
      await this.o.db.execute(sql`
        select id, device, entity from provision_sessions
        where ended_at is null and heard_at < now() - make_interval(secs => ${this.o.timeoutMs / 1000})`),
    );
    for (const s of stale) {
      const seconds = Math.round(this.o.timeoutMs / 1000);
      const ended = await this.end(s.id, s.device, 'timeout', `No word from the device for ${seconds} s`);
      if (!ended) continue;
      const message: ProvisionCancel = {
        id: randomUUID(),
        type: 'provision_cancel',
        payload: { session_id: s.id },
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      };
      await this.o.link.publish(topics.deviceCommands(s.entity, s.device), message).catch(() => undefined);
    }
  }

  /** Ends an open session from the server's side: cancelled (as provision_failed), timed out, or failed. */
  private async end(
    id: string,
    device: string,
    status: 'cancelled' | 'timeout' | 'provision_failed',
    error: string,
  ): Promise<SessionRow | null> {
    const result = await this.o.db.transaction(async (tx) => {
      const open = await lockOpenSession(tx, id, device);
      if (!open) return null;
      // A stale check raced with news from the device: the session is alive after all.
      if (status === 'timeout' && Date.now() - new Date(open.heard_at).getTime() < this.o.timeoutMs) return null;
      const event = status === 'timeout' ? 'timeout' : 'provision_failed';
      const out = await this.failed(tx, open, status, error, event);
      return { out, row: await findSession(tx, device, id) };
    });
    if (!result) return null;
    await this.relay(result.out);
    return result.row;
  }

  /**
   * A file's new status. The hot path of a session (three reports a file), so after the file's
   * row it takes one statement: counters, status, report number, event number, the device's
   * current download and the stored event.
   */
  private async fileChanged(tx: Executor, open: SessionRow, e: Extract<ProvisionDeviceEvent, { phase: 'file' }>) {
    const n = e.n ?? 0;
    const [changed] = rowsOf<{ filename: string }>(
      await tx.execute(sql`
        update provision_files set status = ${e.status}, error = ${e.error ?? null}
        where session_id = ${open.id} and device_path = ${e.device_path}
          and ${FILE_RANK(sql`status`)} < ${FILE_RANK(sql`${e.status}::text`)}
        returning filename`),
    );
    if (!changed) {
      await tx.execute(sql`
        update provision_sessions set heard_at = now(), device_seq = greatest(device_seq, ${n}::int)
        where id = ${open.id}`);
      return [];
    }
    const extra = {
      filename: changed.filename,
      device_path: e.device_path,
      status: e.status,
      error: e.error ?? null,
      message: `${changed.filename}: ${e.status}${e.error ? ` (${e.error})` : ''}`,
    };
    const downloading = e.status === 'downloading';
    const [row] = rowsOf<ProvisionBusEvent>(
      await tx.execute(sql`
        with c as (
          select count(*) filter (where status = 'completed')::int as completed,
                 count(*) filter (where status = 'failed')::int as failed,
                 count(*) filter (where status = 'downloading')::int as downloading,
                 count(*)::int as total
          from provision_files where session_id = ${open.id}),
        s as (
          update provision_sessions s set
            total_files = c.total, completed_files = c.completed, failed_files = c.failed,
            downloading_files = c.downloading, status = 'in_progress', heard_at = now(),
            device_seq = greatest(s.device_seq, ${n}::int), last_seq = s.last_seq + 1
          from c where s.id = ${open.id}
          returning s.*),
        d as (
          update devices set current_download = case when ${downloading}::boolean
            then ${changed.filename}::text || ' (' || (s.completed_files + s.failed_files + 1) || '/' || s.total_files || ')'
            else null end
          from s where devices.name = s.device and devices.current_provision = s.id::text),
        e as (
          insert into provision_events (session_id, seq, event, data)
          select s.id, s.last_seq, 'file_updated',
            jsonb_build_object('session_id', s.id, 'deviceId', s.device, 'total_files', s.total_files,
              'completed_files', s.completed_files, 'failed_files', s.failed_files,
              'downloading_files', s.downloading_files) || ${JSON.stringify(extra)}::jsonb
          from s
          returning session_id, seq, event, data)
        select s.device, e.session_id::text as session_id, e.seq, e.event, e.data from s, e`),
    );
    return row ? [{ ...row, seq: Number(row.seq) }] : [];
  }

  /** A report that changes nothing still shows the device is at work. */
  private async heard(tx: Executor, open: SessionRow): Promise<ProvisionBusEvent[]> {
    await tx.execute(sql`update provision_sessions set heard_at = now() where id = ${open.id}`);
    return [];
  }

  /** The device finished: the outcome of core §4 from the counters. */
  private async completed(
    tx: Executor,
    open: SessionRow,
    results: Array<{ device_path: string; status: 'completed' | 'failed'; error?: string | undefined }>,
  ) {
    if (results.length > 0) {
      await tx.execute(sql`
        update provision_files f set status = v.status, error = coalesce(v.error, f.error)
        from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as v(device_path text, status text, error text)
        where f.session_id = ${open.id} and f.device_path = v.device_path and f.status not in ('completed', 'failed')`);
    }
    await failUnfinished(tx, open.id, 'The device finished without it');
    const counted = await recount(tx, open.id);
    const total = counted.total_files;
    const outcome =
      counted.completed_files === total ? 'success' : counted.failed_files === total ? 'failed' : 'partial';
    const error =
      outcome === 'success' ? null : outcome === 'failed' ? PROVISION_TEXTS.allFailed : PROVISION_TEXTS.partial;
    const s = await recount(tx, open.id, {
      status: outcome === 'success' ? 'provision_completed' : 'provision_failed',
      error,
      end: true,
      heard: true,
    });
    await releaseDevice(tx, s);
    const message =
      outcome === 'success'
        ? `Provisioning complete: ${total} of ${total} files`
        : `${error}: ${s.completed_files} of ${total} files`;
    return appendEvents(tx, s, [{ event: 'provision_completed', data: { status: s.status, outcome, error, message } }]);
  }

  private async failed(
    tx: Executor,
    open: SessionRow,
    status: string,
    error: string,
    event: 'provision_failed' | 'timeout',
  ) {
    await failUnfinished(tx, open.id, error);
    const s = await recount(tx, open.id, { status, error, end: true });
    await releaseDevice(tx, s);
    const message = status === 'timeout' ? `Timed out: ${error}` : `Provisioning failed: ${error}`;
    return appendEvents(tx, s, [
      { event, data: { status, error, message, ...(status === 'cancelled' ? { cancelled: true } : {}) } },
    ]);
  }

  /** Stored events to every instance's streams. */
  private async relay(events: ProvisionBusEvent[]): Promise<void> {
    for (const e of events) {
      await this.o.bus.publish('provision.event', e).catch((err) => this.o.onError(err, 'relaying a provision event'));
    }
  }
}
