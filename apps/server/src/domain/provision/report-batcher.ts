import type { ProvisionDeviceEvent } from '@fleet/shared/provision';
import type { Db } from '../../db/client.ts';
import type { ProvisionBusEvent, StoredMark } from '../../lib/bus.ts';
import type { LoopProbe } from '../../lib/batching/flush-loop.ts';

/**
 * Device reports of provisioning sessions, applied in batches as telemetry is. Two modes, chosen
 * once at start-up (create-report-batcher.ts): `locked-reports.ts` (several instances on
 * PostgreSQL: each flush applies the reports under the sessions' row locks) and `sole-reports.ts`
 * (the embedded database, one instance: open sessions are kept in memory and a report is applied
 * at once). Both apply reports with the state machine of `session-machine.ts`.
 */
export interface ReportBatcher {
  /** Reports applied and flushes written, for the benchmark. */
  readonly counts: { reports: number; flushes: number };
  /** Its flush loop, as the metrics see it. */
  readonly loop: LoopProbe;
  /** Queues a device's report; resolves once it is applied (or ignored) and its events relayed. */
  add(device: string, e: ProvisionDeviceEvent, attempt?: number): Promise<void>;
  /** A session just started here is kept from its first report on (call before telling the device). */
  adopt(session: string): Promise<void>;
  /** Resolves once what the device said until now is in the database (a read of its session follows). */
  settle(device: string): Promise<void>;
  /** Events of a session sent but not yet written, oldest first (an event stream's catch-up reads them). */
  unwritten(session: string): ProvisionBusEvent[];
  /**
   * Runs `fn` (a change to the session made in the database, such as cancel or timeout) with the
   * session's reports held: what was applied is written first and the session is read again after.
   */
  exclusive<T>(session: string, fn: () => Promise<T>): Promise<T>;
  /** Applies what is queued; resolves when it is in the database (waits for a flush in progress first). */
  flush(): Promise<void>;
  /** Shutdown: reports waiting for one they follow are applied now, then everything queued. */
  close(): Promise<void>;
}

export interface ReportOptions {
  db: Db;
  /**
   * Events to every instance's streams, in order: in sole mode once applied, otherwise once
   * numbered under the sessions' row locks, before their transaction commits.
   */
  relay(events: ProvisionBusEvent[]): Promise<void>;
  /** Without sole mode: the events of a flush are stored (committed) up to these numbers. */
  stored?(marks: StoredMark[]): Promise<void>;
  /** A session's reports the database refused even alone: dropped. */
  onRefused(session: string, err: unknown): void;
  /** A flush failed otherwise (logged; the next flush goes on). Unset: told to onRefused with no session. */
  onError?(err: unknown): void;
  /** Flush at least this often while reports arrive (each mode has its own default). */
  intervalMs?: number;
  /** Flush at once when this many reports are queued. */
  maxBatch?: number;
  /**
   * This instance alone applies reports (the embedded database has one owner): sole-reports.ts.
   * Without it every flush locks the sessions in the database, which numbers events whichever
   * instance hears the device: locked-reports.ts.
   */
  sole?: boolean;
}

/** Flush at once when this many reports are queued (unless the options say otherwise). */
export const MAX_BATCH = 2000;

/** Where a batcher tells a flush that failed (ReportOptions.onError). */
export const flushFailed =
  (o: ReportOptions) =>
  (err: unknown): void =>
    o.onError ? o.onError(err) : o.onRefused('', err);
