import type { ProvisionDeviceEvent } from '@fleet/shared/provision';
import type { ProvisionBusEvent, StoredMark } from '../../lib/bus.ts';
import { FlushLoop } from '../../lib/batching/flush-loop.ts';
import { writeReports, type Applied } from './apply-reports.ts';
import { flushFailed, MAX_BATCH, type ReportBatcher, type ReportOptions } from './report-batcher.ts';
import { EarlyReports, type Queued } from './report-order.ts';

/**
 * Flush interval with several instances: a report's event waits for its flush to number it, so
 * the interval is what a lone report waits at least; under load a flush gathers what arrives
 * while the one before it is written, whatever the interval.
 */
const LOCKED_INTERVAL_MS = 5;

/** The last event of each session among `events` (in order), as a stored mark. */
function storedMarks(events: ProvisionBusEvent[]): StoredMark[] {
  const last = new Map<string, StoredMark>();
  for (const e of events) last.set(e.session_id, { device: e.device, session_id: e.session_id, seq: e.seq });
  return [...last.values()];
}

/**
 * Reports with several instances on one PostgreSQL (apply-reports.ts): every flush locks the
 * sessions it touches, so whichever instance hears the device, events are numbered without gaps.
 * The events go out on the bus as soon as they are numbered, while the transaction writes them: a
 * watcher does not wait for the write. Once committed, a `stored` mark per session lets a stream
 * that opened meanwhile (its catch-up did not find them yet) read them.
 */
export class LockedReports implements ReportBatcher {
  readonly counts = { reports: 0, flushes: 0 };
  private pending: Queued[] = [];
  private readonly early = new EarlyReports((q, attempt) => this.queue({ ...q, attempt }));
  /** Its flush loop (the metrics read its depth and time its writes). */
  readonly loop: FlushLoop<Queued[]>;

  constructor(private readonly o: ReportOptions) {
    this.loop = new FlushLoop({
      take: 'when-flush-starts',
      intervalMs: o.intervalMs ?? LOCKED_INTERVAL_MS,
      maxBatch: o.maxBatch ?? MAX_BATCH,
      collect: () => {
        if (this.pending.length === 0) return undefined;
        const batch = this.pending;
        this.pending = [];
        return batch;
      },
      write: (batch) =>
        writeReports(o.db, batch, {
          readAll: false,
          waits: (q) => this.early.waits(q),
          numbered: (events) => void o.relay(events),
          committed: (b, result) => this.committed(b, result),
          onRefused: o.onRefused,
        }),
      onError: flushFailed(o),
    });
  }

  add(device: string, e: ProvisionDeviceEvent, attempt = 0): Promise<void> {
    return new Promise((done, fail) => this.queue({ device, sid: e.session_id.toLowerCase(), e, attempt, done, fail }));
  }

  /** The database's row lock holds the session: nothing is kept here. */
  adopt(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing is kept here: every report's flush writes it before answering. */
  settle(): Promise<void> {
    return Promise.resolve();
  }

  unwritten(): ProvisionBusEvent[] {
    return [];
  }

  /** The database's row lock holds the session's reports. */
  exclusive<T>(_session: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  flush(): Promise<void> {
    return this.loop.flush();
  }

  close(): Promise<void> {
    return this.early.close(this.loop);
  }

  private queue(q: Queued): void {
    this.pending.push(q);
    this.loop.added(this.pending.length);
  }

  /** After a batch's transaction: counts, its events marked stored, its reports answered. */
  private async committed(batch: Queued[], result: Applied): Promise<void> {
    this.counts.flushes++;
    this.counts.reports += batch.length - result.early.length;
    if (result.events.length > 0) await this.o.stored?.(storedMarks(result.events));
    const early = new Set(result.early);
    for (const q of batch) if (!early.has(q)) q.done();
    for (const q of result.early) this.early.later(q);
  }
}
