import { PROVISION_TEXTS, type ProvisionFileStatus } from '@fleet/shared/provision';
import { provisionOutcome, type ProvisionOutcome } from '@fleet/shared/provision-outcome';

/** The texts of core §4 and §8 the console shows. */
export const PROVISION_NOTICES = {
  lost: 'Connection to event stream lost',
  timedOut: 'Connection to event stream timed out',
  allFailed: PROVISION_TEXTS.allFailed,
  partial: PROVISION_TEXTS.partial,
  complete: 'Provisioning Complete',
  completeWithErrors: 'Provisioning Complete with some errors',
  failed: 'Provisioning Failed',
  failedText: (id: string) => `Device ${id} provisioning failed.`,
  cancelled: 'Provisioning Cancelled',
  cancelFailed: 'Cancel Failed',
} as const;

/** The tracked statuses of core §4 (the stream's view of a session). */
export type TrackedStatus =
  'provision_started' | 'in_progress' | 'provision_finalizing' | 'provision_completed' | 'provision_failed';

/** What the modal shows (core §2, §3): one device's session as its events built it. */
export interface ProvisionView {
  deviceId: string;
  session_id: string;
  status: TrackedStatus;
  eventType: string;
  /** The log, oldest first. */
  message: string[];
  errorMessage: string | null;
  total_files: number;
  completed_files: number;
  failed_files: number;
  downloading_files: number;
  files: Array<{ filename: string; device_path: string; status: ProvisionFileStatus }>;
  /** Set once: the notice the outcome calls for has been decided. */
  outcome: null | ProvisionOutcome;
}

export const emptyView = (deviceId: string): ProvisionView => ({
  deviceId,
  session_id: '',
  status: 'provision_started',
  eventType: '',
  message: [],
  errorMessage: null,
  total_files: 0,
  completed_files: 0,
  failed_files: 0,
  downloading_files: 0,
  files: [],
  outcome: null,
});

interface EventData {
  session_id?: string;
  message?: string;
  status?: string;
  filename?: string;
  device_path?: string;
  files?: ProvisionView['files'];
  total?: number;
  total_files?: number;
  completed_files?: number;
  failed_files?: number;
  downloading_files?: number;
  error?: string | null;
  /** provision_completed: the outcome the server decided. */
  outcome?: ProvisionOutcome;
}

const counters = (d: EventData, v: ProvisionView) => ({
  total_files: d.total_files ?? v.total_files,
  completed_files: d.completed_files ?? v.completed_files,
  failed_files: d.failed_files ?? v.failed_files,
  downloading_files: d.downloading_files ?? v.downloading_files,
});

/** Pending and downloading files become failed (core §4, after provision_failed). */
const failOpenFiles = (files: ProvisionView['files']) =>
  files.map((f) =>
    f.status === 'pending' || f.status === 'downloading' || f.status === 'queued'
      ? { ...f, status: 'failed' as const }
      : f,
  );

/**
 * The session after one stream event (core §4): a new session id resets the data; started and
 * file updates track in_progress; provision_completed decides success, all failed or partial;
 * provision_failed and timeout fail the session.
 */
export function applyEvent(v: ProvisionView, event: string, d: EventData): ProvisionView {
  if (event === 'connection') return v;
  let next = v;
  if (d.session_id && d.session_id !== v.session_id) next = { ...emptyView(v.deviceId), session_id: d.session_id };
  next = {
    ...next,
    ...counters(d, next),
    eventType: event,
    message: d.message ? [...next.message, d.message] : next.message,
  };
  switch (event) {
    case 'provision_started':
      return {
        ...next,
        status: 'provision_started',
        files: d.files ?? next.files,
        total_files: d.total ?? next.total_files,
      };
    case 'provisioning_ready':
      return { ...next, status: 'in_progress' };
    case 'file_updated':
      return {
        ...next,
        status: 'in_progress',
        files: next.files.map((f) =>
          f.device_path === d.device_path ? { ...f, status: (d.status as ProvisionFileStatus) ?? f.status } : f,
        ),
      };
    case 'provision_finalizing':
      return { ...next, status: (d.status as TrackedStatus) ?? 'provision_finalizing' };
    case 'provision_completed': {
      const outcome = d.outcome ?? provisionOutcome(next);
      if (outcome === 'success') return { ...next, status: 'provision_completed', outcome };
      const errorMessage = outcome === 'failed' ? PROVISION_NOTICES.allFailed : PROVISION_NOTICES.partial;
      return { ...next, status: 'provision_failed', errorMessage, outcome };
    }
    case 'provision_failed':
      return {
        ...next,
        status: 'provision_failed',
        errorMessage: d.error ?? PROVISION_NOTICES.failedText(v.deviceId),
        files: failOpenFiles(next.files),
        outcome: 'failed',
      };
    case 'timeout':
      return {
        ...next,
        status: 'provision_failed',
        errorMessage: PROVISION_NOTICES.timedOut,
        files: failOpenFiles(next.files),
        outcome: 'failed',
      };
    default:
      return next;
  }
}

/** A stream that could not go on fails the session with 'Connection to event stream lost'. */
export const streamLost = (v: ProvisionView): ProvisionView => ({
  ...v,
  status: 'provision_failed',
  errorMessage: PROVISION_NOTICES.lost,
  files: failOpenFiles(v.files),
  outcome: 'failed',
});

const STATUS_TEXT = { success: 'Success', failed: 'Failed', partial: 'Partially Succeeded' } as const;

/** The modal's status text (core §4): derived from the counters once completed plus failed equals total. */
export function statusText(v: ProvisionView): 'Failed' | 'Success' | 'Partially Succeeded' | 'In Progress' {
  const done = v.total_files > 0 && v.completed_files + v.failed_files === v.total_files;
  if (done) return STATUS_TEXT[provisionOutcome(v)];
  return v.status === 'provision_failed' ? 'Failed' : 'In Progress';
}

/** Whether a session is still under way (core §4 tracked statuses). */
export const isActive = (v: ProvisionView | undefined) =>
  v !== undefined &&
  (v.status === 'provision_started' || v.status === 'in_progress' || v.status === 'provision_finalizing');

/** A device counts as provisioning (core §4): tracked session active, state PROVISIONING or DFU, or a current provision. */
export function countsAsProvisioning(
  device: { state: { current: string | null }; current_provision: string | null },
  tracked: ProvisionView | undefined,
): boolean {
  if (tracked && (tracked.status === 'provision_started' || tracked.status === 'in_progress')) return true;
  return device.state.current === 'PROVISIONING' || device.state.current === 'DFU' || Boolean(device.current_provision);
}
