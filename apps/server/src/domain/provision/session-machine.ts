import {
  PROVISION_TEXTS,
  type Counters,
  type ProvisionDeviceEvent,
  type ProvisionEventName,
  type ProvisionFileStatus,
  type ProvisionStatus,
} from '@fleet/shared/provision';
import { provisionOutcome } from '@fleet/shared/provision-outcome';
import type { ProvisionBusEvent } from '../../lib/bus.ts';

/**
 * The provisioning state machine (core §4, docs/device-protocol.md "Provisioning"), pure: a
 * session's state and a report (or the server ending it) give the new state, the files that
 * changed and the numbered events. The report batcher and the service only read and persist.
 */

export interface FileState {
  device_path: string;
  filename: string;
  status: ProvisionFileStatus;
  error: string | null;
}

export interface SessionState extends Counters {
  id: string;
  device: string;
  status: ProvisionStatus;
  error: string | null;
  /** The number of the session's last event. */
  last_seq: number;
  /** The number (`n`) of the device's last report applied. */
  device_seq: number;
  ended: boolean;
  /** The files a step may change: all of the session's, or those a batch of reports names (the counters hold for all). */
  files: readonly FileState[];
}

/** What one step decided. */
export interface Step {
  state: SessionState;
  /** Files whose status changed, as they are now. */
  changed: FileState[];
  events: ProvisionBusEvent[];
  /** The device was heard from (its session's silence starts again). */
  heard: boolean;
  /** The session ended here: the device leaves provisioning. */
  ended: boolean;
  /** The device's download line: set, cleared (null), or left (undefined). */
  download?: string | null;
  /** The report follows one not yet applied (`n` ahead): nothing was applied. */
  early: boolean;
}

/** How the server ends a session: cancelled (sent as provision_failed), timed out, or failed. */
export type EndReason = 'cancelled' | 'timeout' | 'provision_failed';

/** What one event says beyond the session and its counters, which every event carries. */
export type EventBody = { event: ProvisionEventName; data: Record<string, unknown> & { message: string } };

/** A file's statuses in order: a report may only move a file forward (a repeat changes nothing). */
const FILE_RANK: Record<ProvisionFileStatus, number> = {
  pending: 0,
  queued: 1,
  downloading: 2,
  completed: 3,
  failed: 3,
};

const isFinal = (s: ProvisionFileStatus) => s === 'completed' || s === 'failed';

/** A step being worked out: a copy of the state that only this step changes. */
class Draft {
  readonly s: SessionState & { files: FileState[] };
  readonly changed = new Map<string, FileState>();
  readonly events: ProvisionBusEvent[] = [];
  heard = false;
  ended = false;
  download?: string | null;

  constructor(state: SessionState) {
    this.s = { ...state, files: [...state.files] };
  }

  file(devicePath: string): FileState | undefined {
    return this.s.files.find((f) => f.device_path === devicePath);
  }

  /** A file's new status; the session's counters follow. */
  move(file: FileState, status: ProvisionFileStatus, error: string | null): void {
    const count = (st: ProvisionFileStatus, by: number) => {
      if (st === 'completed') this.s.completed_files += by;
      else if (st === 'failed') this.s.failed_files += by;
      else if (st === 'downloading') this.s.downloading_files += by;
    };
    count(file.status, -1);
    count(status, 1);
    const moved = { ...file, status, error };
    this.s.files[this.s.files.indexOf(file)] = moved;
    this.changed.set(moved.device_path, moved);
  }

  failUnfinished(error: string): void {
    for (const f of [...this.s.files]) if (!isFinal(f.status)) this.move(f, 'failed', f.error ?? error);
  }

  end(status: ProvisionStatus, error: string | null): void {
    this.s.status = status;
    this.s.error = error;
    this.s.ended = true;
    this.ended = true;
    this.download = null;
  }

  /** Numbers an event after the session's last one; it carries the session, the device and the counters. */
  append(body: EventBody): void {
    const { s } = this;
    s.last_seq += 1;
    const counters = {
      total_files: s.total_files,
      completed_files: s.completed_files,
      failed_files: s.failed_files,
      downloading_files: s.downloading_files,
    };
    this.events.push({
      device: s.device,
      session_id: s.id,
      seq: s.last_seq,
      event: body.event,
      data: { session_id: s.id, deviceId: s.device, ...counters, ...body.data },
    });
  }

  step(early = false): Step {
    return {
      state: this.s,
      changed: [...this.changed.values()],
      events: this.events,
      heard: this.heard,
      ended: this.ended,
      ...(this.download !== undefined ? { download: this.download } : {}),
      early,
    };
  }
}

/** A new session's first step: its files pending and the `provision_started` event. */
export function startSession(
  session: { id: string; device: string; by: string },
  files: ReadonlyArray<{ filename: string; device_path: string }>,
): Step {
  const d = new Draft({
    id: session.id,
    device: session.device,
    status: 'provision_started',
    error: null,
    last_seq: 0,
    device_seq: 0,
    ended: false,
    files: files.map((f) => ({ filename: f.filename, device_path: f.device_path, status: 'pending', error: null })),
    total_files: files.length,
    completed_files: 0,
    failed_files: 0,
    downloading_files: 0,
  });
  d.append({
    event: 'provision_started',
    data: {
      status: 'provision_started',
      files: files.map((f) => ({ filename: f.filename, device_path: f.device_path, status: 'pending' })),
      total: files.length,
      message: `Provisioning started by ${session.by}: ${files.length} file${files.length === 1 ? '' : 's'}`,
    },
  });
  return d.step();
}

/**
 * Applies one device report. A report of an ended session changes nothing; a numbered one already
 * applied (`n` not past the last) only counts as word from the device; one that follows a report
 * not yet applied is `early` and changes nothing, unless `waitForMissing` is false (then the
 * missing ones are given up on).
 */
export function applyReport(state: SessionState, e: ProvisionDeviceEvent, waitForMissing = true): Step {
  const d = new Draft(state);
  if (state.ended) return d.step();
  if (e.n !== undefined) {
    if (e.n <= state.device_seq) {
      d.heard = true;
      return d.step();
    }
    if (e.n > state.device_seq + 1 && waitForMissing) return d.step(true);
    d.s.device_seq = e.n;
  }
  report(d, e);
  return d.step();
}

/** The server ends a session that is still open (cancel, timeout, a device it cannot reach). */
export function endSession(state: SessionState, reason: EndReason, error: string): Step {
  const d = new Draft(state);
  if (!state.ended) fail(d, reason, error);
  return d.step();
}

/** Unfinished files fail, the session ends, and its event says why. */
function fail(d: Draft, reason: EndReason, error: string): void {
  d.failUnfinished(error);
  d.end(reason, error);
  d.append({
    event: reason === 'timeout' ? 'timeout' : 'provision_failed',
    data: {
      status: reason,
      error,
      message: reason === 'timeout' ? `Timed out: ${error}` : `Provisioning failed: ${error}`,
      ...(reason === 'cancelled' ? { cancelled: true } : {}),
    },
  });
}

function report(d: Draft, e: ProvisionDeviceEvent): void {
  switch (e.phase) {
    case 'ready':
      d.heard = true;
      // Said again (a redelivery): heard, nothing new.
      if (d.s.status !== 'provision_started') return;
      d.s.status = 'in_progress';
      return d.append({ event: 'provisioning_ready', data: { status: 'in_progress', message: 'The device is ready' } });
    case 'file': {
      d.heard = true;
      const file = d.file(e.device_path);
      // Only forward: a repeat or a late report changes nothing.
      if (!file || FILE_RANK[file.status] >= FILE_RANK[e.status]) return;
      d.move(file, e.status, e.error ?? null);
      d.s.status = 'in_progress';
      d.download =
        e.status === 'downloading'
          ? `${file.filename} (${d.s.completed_files + d.s.failed_files + 1}/${d.s.total_files})`
          : null;
      return d.append({
        event: 'file_updated',
        data: {
          filename: file.filename,
          device_path: e.device_path,
          status: e.status,
          error: e.error ?? null,
          message: `${file.filename}: ${e.status}${e.error ? ` (${e.error})` : ''}`,
        },
      });
    }
    case 'finalizing':
      d.heard = true;
      d.s.status = 'provision_finalizing';
      return d.append({
        event: 'provision_finalizing',
        data: { status: 'provision_finalizing', message: 'Finalizing' },
      });
    case 'completed':
      d.heard = true;
      return complete(d, e.results ?? []);
    case 'failed':
      return fail(d, 'provision_failed', e.error ?? 'The device reported a failure');
  }
}

/** The device finished: its final word on each file holds, whatever order its earlier reports came in. */
function complete(
  d: Draft,
  results: ReadonlyArray<{ device_path: string; status: 'completed' | 'failed'; error?: string }>,
) {
  for (const r of results) {
    const file = d.file(r.device_path);
    if (!file || isFinal(file.status)) continue;
    d.move(file, r.status, r.error ?? file.error);
  }
  d.failUnfinished('The device finished without it');
  const total = d.s.total_files;
  const outcome = provisionOutcome(d.s);
  const error =
    outcome === 'success' ? null : outcome === 'failed' ? PROVISION_TEXTS.allFailed : PROVISION_TEXTS.partial;
  d.end(outcome === 'success' ? 'provision_completed' : 'provision_failed', error);
  const message =
    outcome === 'success'
      ? `Provisioning complete: ${total} of ${total} files`
      : `${error}: ${d.s.completed_files} of ${total} files`;
  d.append({ event: 'provision_completed', data: { status: d.s.status, outcome, error, message } });
}
