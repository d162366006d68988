import { randomUUID } from 'node:crypto';
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
import type { Db } from '../../db/client.ts';
import type { Bus, ProvisionBusEvent } from '../../lib/bus.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { DownloadSigner } from '../../storage/signed-urls.ts';
import { SYSTEM_CONTEXT, type AuditContext } from '../audit/audit-context.ts';
import { recordAudit, recordFailure, type AuditEntryInput } from '../audit/audited.ts';
import type { TelemetryBatcher } from '../telemetry/telemetry-batcher.ts';
import { isDeviceOf, readPresence, type DevicePresence } from './device-presence.ts';
import { filesForDevice } from './files-for-device.ts';
import { createReportBatcher } from './create-report-batcher.ts';
import type { ReportBatcher } from './report-batcher.ts';
import { insertSession, readFiles, saveChanges, stateOf } from './report-queries.ts';
import { record, unchanged } from './session-change.ts';
import type { EndedBy } from './record-ends.ts';
import { endSession, startSession, type EndReason } from './session-machine.ts';
import { findSession, lockOpenSession, presentSession, staleSessions, type SessionRow } from './session-store.ts';

interface Options {
  db: Db;
  bus: Bus;
  /** Where commands to devices go (the device link of mqtt/). */
  link: { publish(topic: string, message: unknown): Promise<void> };
  downloads: DownloadSigner;
  /** Presence of devices heard on this instance, written before it is read. */
  telemetry: Pick<TelemetryBatcher, 'settle'>;
  /** How long a device not yet online may take to be heard (device-presence.ts); 0 on the embedded broker. */
  presenceGraceMs: number;
  timeoutMs: number;
  /** This instance alone applies device reports (report-batcher.ts, `sole`). */
  sole: boolean;
  onError(err: unknown, what: string): void;
}

/** How long a provision command's links stay valid beyond the session's silence limit. */
const LINK_VALID_MS = 60 * 60_000;

/**
 * Provisioning sessions (core §4, docs/device-protocol.md "Provisioning"): every change is one
 * transaction on the session row (locked), so events are numbered without gaps whichever
 * instance hears the device; each stored event then goes out on the bus to the event streams.
 */
export class ProvisionService {
  /** Device reports, applied in batches (report-batcher.ts). */
  readonly reports: ReportBatcher;

  constructor(private readonly o: Options) {
    this.reports = createReportBatcher({
      sole: o.sole,
      db: o.db,
      relay: (events) => this.relay(events),
      stored: (marks) =>
        o.bus.publish('provision.stored', { marks }).catch((err) => o.onError(err, 'relaying stored marks')),
      onRefused: (session, err) => o.onError(err, `applying the reports of session ${session} (dropped)`),
      onError: (err) => o.onError(err, 'a flush of device reports'),
    });
  }

  /**
   * Starts a session: the device gets its files' signed links; answers the new session. Recorded
   * as `provision.start` with the session (its files by name), a refusal as a failure; `audit`
   * null when the caller records the start itself (a selection's one entry).
   */
  async start(
    actor: AccessClaims,
    entity: string,
    device: string,
    base: string,
    audit: AuditContext | null = SYSTEM_CONTEXT,
  ): Promise<ProvisionSession> {
    const entry = { action: 'provision.start', entity, target: { type: 'device', name: device } } as const;
    try {
      return await this.begin(actor, entity, device, base, audit, entry);
    } catch (err) {
      if (err instanceof HttpError && audit) await recordFailure(this.o.db, audit, entry, err);
      throw err;
    }
  }

  private async begin(
    actor: AccessClaims,
    entity: string,
    device: string,
    base: string,
    audit: AuditContext | null,
    entry: AuditEntryInput,
  ): Promise<ProvisionSession> {
    const { db } = this.o;
    // Whether a session is open is read from the database: what the device said is written first.
    await this.reports.settle(device);
    const dev = await readPresence(db, this.o.telemetry, entity, device, this.o.presenceGraceMs);
    if (!dev) throw notFound('Device');
    if (Date.now() - new Date(dev.updated_at).getTime() > UNRESPONSIVE_AFTER_MS)
      throw new HttpError(409, `Device ${device} is unresponsive`, 'No word from the device for over 20 minutes');
    if (!dev.online) throw notConnected(dev);
    const files = await filesForDevice(db, entity, device);
    if (files.length === 0)
      throw new HttpError(
        409,
        `No files to provision for device ${device}`,
        'Upload files at entity, site or group level',
      );
    const id = randomUUID();
    const started = startSession({ id, device, by: actor.sub }, files);
    let session: SessionRow;
    try {
      session = await db.transaction(async (tx) => {
        const row = await insertSession(
          tx,
          started,
          { entity, started_by: actor.sub, prior_state: dev.state_current },
          files,
        );
        const names = files.map((f) => f.filename);
        if (audit) await recordAudit(tx, audit, { ...entry, details: { session_id: id, count: names.length, names } });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new HttpError(409, `Device ${device} is already being provisioned`, 'Cancel the running session first');
      throw err;
    }
    await this.relay(started.events);
    await this.reports.adopt(id);
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

  /** `…/cancel`: tells the device and ends the open session; recorded as `provision.cancel` (a refusal as a failure). */
  async cancel(
    actor: AccessClaims,
    entity: string,
    device: string,
    audit: AuditContext = SYSTEM_CONTEXT,
  ): Promise<ProvisionSession> {
    try {
      return await this.stop(actor, entity, device, audit);
    } catch (err) {
      const entry = { action: 'provision.cancel', entity, target: { type: 'device', name: device } } as const;
      if (err instanceof HttpError) await recordFailure(this.o.db, audit, entry, err);
      throw err;
    }
  }

  private async stop(actor: AccessClaims, entity: string, device: string, audit: AuditContext) {
    const { db } = this.o;
    if (!(await isDeviceOf(db, entity, device))) throw notFound('Device');
    await this.reports.settle(device);
    const open = await findSession(db, device);
    if (!open || open.ended_at !== null)
      throw new HttpError(409, `Device ${device} is not being provisioned`, 'No open provisioning session');
    const ended = await this.end(open.id, device, 'cancelled', `${PROVISION_TEXTS.cancelled} by ${actor.sub}`, {
      ctx: audit,
      action: 'provision.cancel',
    });
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
    if (!(await isDeviceOf(db, entity, device))) throw notFound('Device');
    await this.reports.settle(device);
    const s = await findSession(db, device);
    if (!s) throw notFound('Provisioning session');
    return presentSession(db, s);
  }

  /** A device's report on `…/events`; reports of a session that is not open are ignored. */
  onDeviceEvent(device: string, e: ProvisionDeviceEvent): Promise<void> {
    return this.reports.add(device, e);
  }

  /** Ends open sessions that heard nothing for the timeout with a `timeout` event (any instance may). */
  async sweep(): Promise<void> {
    for (const s of await staleSessions(this.o.db, this.o.timeoutMs)) {
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

  /**
   * Ends an open session from the server's side (session-machine.ts `endSession`): cancelled, timed
   * out, or failed; recorded by `by` (the system's `provision.end` unless an account cancels).
   */
  private async end(
    id: string,
    device: string,
    reason: EndReason,
    error: string,
    by: EndedBy = { ctx: SYSTEM_CONTEXT, action: 'provision.end' },
  ): Promise<SessionRow | null> {
    const result = await this.reports.exclusive(id, () =>
      this.o.db.transaction(async (tx) => {
        const open = await lockOpenSession(tx, id, device);
        if (!open) return null;
        // A stale check raced with news from the device: the session is alive after all.
        if (reason === 'timeout' && Date.now() - new Date(open.heard_at).getTime() < this.o.timeoutMs) return null;
        // Its unfinished files fail; the counters on the row hold for all of them.
        const files = await readFiles(tx, { whole: [], unfinished: [id], named: [] });
        const change = unchanged(stateOf(open, files), open.prior_state);
        const step = endSession(change.state, reason, error);
        record(change, step);
        await saveChanges(tx, [change], by);
        return { out: step.events, row: await findSession(tx, device, id) };
      }),
    );
    if (!result) return null;
    await this.relay(result.out);
    return result.row;
  }

  /**
   * Events to every instance's streams, in one message: the bus keeps messages in order, and a
   * flush of hundreds of events costs one message, not hundreds.
   */
  private async relay(events: ProvisionBusEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.o.bus
      .publish('provision.events', { events })
      .catch((err) => this.o.onError(err, 'relaying provision events'));
  }
}

/**
 * Why a device that is not connected cannot be provisioned now. Unlike a command, a session is
 * not held for a sleeping device (docs/decisions/2026-11-25-device-feedback.md).
 */
function notConnected(dev: DevicePresence): HttpError {
  const never = new Date(dev.updated_at).getTime() === new Date(dev.created_at).getTime();
  return never
    ? new HttpError(
        409,
        `Device ${dev.name} has not connected yet`,
        'Provisioning needs the device connected: start it once the device is online',
      )
    : new HttpError(
        409,
        `Device ${dev.name} is asleep`,
        'Provisioning needs the device connected: start it once the device is awake',
      );
}
