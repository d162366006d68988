import type { ProvisionDeviceEvent } from '@fleet/shared/provision';
import type { ProvisionBusEvent } from '../../lib/bus.ts';
import { FlushLoop } from '../../lib/batching/flush-loop.ts';
import { writeBisecting } from '../../lib/batching/bisecting-writer.ts';
import { writeReports, type Applied } from './apply-reports.ts';
import { flushFailed, MAX_BATCH, type ReportBatcher, type ReportOptions } from './report-batcher.ts';
import { EarlyReports, type Queued } from './report-order.ts';
import { readOpenSession, saveChanges, stateOf } from './report-queries.ts';
import { record, takeChange, unchanged, type SessionChange } from './session-change.ts';
import { applyReport } from './session-machine.ts';

/** Flushes settle() and exclusive() wait through at most (each writes the oldest changes first). */
const MAX_SETTLE_FLUSHES = 200;

/**
 * Flush interval: events are sent before they are written, so the interval sets how far the
 * database trails, not what a watcher waits for; fewer, larger transactions leave the embedded
 * database's thread more of the shared cores. A session's end is written at once.
 */
const SOLE_INTERVAL_MS = 100;

/** Events (and sessions) written per transaction at most. */
const MAX_LIVE_WRITE = 1000;

/**
 * Reports on the embedded database, which has one owner, so this instance alone applies them: open
 * sessions are kept here once read, a report is applied to them at once and its events go out
 * before they are written; the writes follow in batches. A session not kept here yet is read and
 * applied under its row lock (apply-reports.ts), and kept from then on.
 */
export class SoleReports implements ReportBatcher {
  readonly counts = { reports: 0, flushes: 0 };
  private pending: Queued[] = [];
  private readonly early = new EarlyReports((q, attempt) => this.offer({ ...q, attempt }));
  /** Its flush loop (the metrics read its depth and time its writes). */
  readonly loop: FlushLoop<true>;
  /** Open sessions as last applied here, with the changes not yet written. */
  private readonly live = new Map<string, SessionChange>();
  /** Sessions with changes to write. */
  private readonly dirty = new Set<SessionChange>();
  /**
   * Reports applied here since the last write took their sessions' changes (the size trigger).
   * A report applied here is answered at once: its events are out, and its change is the
   * session's to write (a session the database refuses is dropped and logged, not each report).
   * Holding each report and its promise until the write kept 10,000 a second alive through the
   * young generation's scavenges whenever the writes fell behind.
   */
  private appliedSinceWrite = 0;
  /** Events sent but not yet written, by session. */
  private readonly unwrittenBy = new Map<string, ProvisionBusEvent[]>();
  /** Sessions that exclusive() holds; their reports wait here. */
  private readonly held = new Map<string, Queued[]>();
  private exclusiveChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: ReportOptions) {
    this.loop = new FlushLoop({
      // The batch is taken when the flush before it has finished: while one is written the next
      // gathers everything that arrives, so a slow flush makes the next one bigger, not late.
      take: 'when-flush-starts',
      intervalMs: o.intervalMs ?? SOLE_INTERVAL_MS,
      maxBatch: o.maxBatch ?? MAX_BATCH,
      collect: () => (this.dirty.size > 0 || this.pending.length > 0 ? true : undefined),
      write: () => this.writeAll(),
      onError: flushFailed(o),
    });
  }

  add(device: string, e: ProvisionDeviceEvent, attempt = 0): Promise<void> {
    return new Promise((done, fail) => this.offer({ device, sid: e.session_id.toLowerCase(), e, attempt, done, fail }));
  }

  async adopt(session: string): Promise<void> {
    const sid = session.toLowerCase();
    const read = await readOpenSession(this.o.db, sid);
    if (!read || this.live.has(sid) || this.held.has(sid)) return;
    this.live.set(sid, unchanged(stateOf(read.row, read.files), read.row.prior_state));
  }

  /**
   * Resolves once the events of the device's sessions sent until now, and its reports queued until
   * now, are written. A flush writes the oldest changes first and a bounded share, so this may take several.
   */
  async settle(device: string): Promise<void> {
    const marks = [...this.unwrittenBy]
      .filter(([, list]) => list[0]?.device === device)
      .map(([id, list]) => [id, list.at(-1)!.seq] as const);
    await this.flushUntil(
      () =>
        !marks.some(([id, seq]) => (this.unwrittenBy.get(id)?.[0]?.seq ?? Infinity) <= seq) &&
        !this.pending.some((q) => q.device === device),
    );
  }

  unwritten(session: string): ProvisionBusEvent[] {
    return [...(this.unwrittenBy.get(session.toLowerCase()) ?? [])];
  }

  exclusive<T>(session: string, fn: () => Promise<T>): Promise<T> {
    const sid = session.toLowerCase();
    const run = async () => {
      const waiting: Queued[] = [];
      this.held.set(sid, waiting);
      try {
        // Every change applied here is written before the database changes the session: none
        // may be written after it (its reports are held, so this ends).
        await this.flushUntil(
          () => ![...this.dirty].some((w) => w.state.id === sid) && !this.pending.some((q) => q.sid === sid),
        );
        this.live.delete(sid);
        return await fn();
      } finally {
        this.held.delete(sid);
        for (const q of waiting) this.offer(q);
      }
    };
    const result = this.exclusiveChain.then(run, run);
    this.exclusiveChain = result.catch(() => undefined);
    return result;
  }

  flush(): Promise<void> {
    return this.loop.flush();
  }

  close(): Promise<void> {
    return this.early.close(this.loop);
  }

  /** Flushes until `done()` holds (each flush writes the oldest changes first, a bounded share). */
  private async flushUntil(done: () => boolean): Promise<void> {
    for (let i = 0; i < MAX_SETTLE_FLUSHES; i++) {
      await this.loop.flush();
      if (done()) return;
    }
  }

  /** A report goes to its held session, to its session kept here, or to the next flush. */
  private offer(q: Queued): void {
    const held = this.held.get(q.sid);
    if (held) return void held.push(q);
    const w = this.live.get(q.sid);
    if (w) return this.applyLive(w, q);
    this.pending.push(q);
    this.schedule();
  }

  private schedule(): void {
    this.loop.added(this.pending.length + this.appliedSinceWrite);
  }

  /** Applies a report to a session kept here, sends its events, and marks it for writing. */
  private applyLive(w: SessionChange, q: Queued): void {
    // Not this session's device: ignored, as the database path ignores it.
    if (w.state.device !== q.device) return q.done();
    const step = applyReport(w.state, q.e, this.early.waits(q));
    if (step.early) return this.early.later(q);
    record(w, step);
    this.counts.reports++;
    this.dirty.add(w);
    this.appliedSinceWrite++;
    if (step.events.length > 0) {
      const list = this.unwrittenBy.get(w.state.id) ?? [];
      list.push(...step.events);
      this.unwrittenBy.set(w.state.id, list);
      void this.o.relay(step.events);
    }
    q.done();
    // Ended: later reports go the database's way, which finds the session closed once written
    // (written at once: start, cancel and reading a session first write what was applied).
    if (w.ended) {
      this.live.delete(w.state.id);
      return void this.loop.flush();
    }
    this.schedule();
  }

  /** One flush: the changes of the sessions kept here, then the reports of sessions not kept here. */
  private async writeAll(): Promise<void> {
    if (this.dirty.size > 0) await this.writeLive();
    // None is of a session kept here: offer() applies those at once, and committed() the ones
    // queued while their session was being read.
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0)
      await writeReports(this.o.db, batch, {
        readAll: true,
        waits: (q) => this.early.waits(q),
        committed: (b, result) => this.committed(b, result),
        onRefused: this.o.onRefused,
      });
    // More changes than one write takes: the next flush starts at once.
    if (this.dirty.size > 0) void this.loop.flush();
  }

  /** After a batch's transaction: counts, its events out, its reports answered, its sessions kept. */
  private async committed(batch: Queued[], result: Applied): Promise<void> {
    this.counts.flushes++;
    this.counts.reports += batch.length - result.early.length;
    await this.o.relay(result.events);
    const early = new Set(result.early);
    for (const q of batch) if (!early.has(q)) q.done();
    for (const q of result.early) this.early.later(q);
    // The sessions just read stay here, so their next reports need no database first.
    const read = new Set<string>();
    for (const w of result.touched) {
      const id = w.state.id;
      if (w.ended || this.held.has(id) || this.live.has(id)) continue;
      this.live.set(id, unchanged(w.state, w.prior_state));
      read.add(id);
    }
    // Their reports that arrived during this write go first, before any that follows.
    if (read.size === 0) return;
    const rest: Queued[] = [];
    const now: Queued[] = [];
    for (const q of this.pending) (read.has(q.sid) ? now : rest).push(q);
    this.pending = rest;
    for (const q of now) {
      const w = this.live.get(q.sid);
      // Ended by a report before it: the database's way, which will find the session closed.
      if (w) this.applyLive(w, q);
      else this.pending.push(q);
    }
  }

  /** Writes the changes of the sessions kept here, in one transaction like a flush. */
  private async writeLive(): Promise<void> {
    // The oldest changes first, a bounded share per transaction: the embedded database's one
    // connection is free between them for the other queries (an event stream's catch-up).
    const taken: SessionChange[] = [];
    let size = 0;
    for (const w of this.dirty) {
      taken.push(w);
      size += w.events.length + 1;
      if (size >= MAX_LIVE_WRITE) break;
    }
    for (const w of taken) this.dirty.delete(w);
    this.appliedSinceWrite = this.dirty.size === 0 ? 0 : this.appliedSinceWrite;
    const changes = taken.map(takeChange);
    await this.store(changes);
    for (const c of changes) {
      const written = c.events.at(-1)?.seq ?? 0;
      const still = (this.unwrittenBy.get(c.state.id) ?? []).filter((e) => e.seq > written);
      if (still.length > 0) this.unwrittenBy.set(c.state.id, still);
      else this.unwrittenBy.delete(c.state.id);
    }
  }

  /** Writes changes; a session refused even alone is dropped from memory (its next report reads it again). */
  private async store(changes: SessionChange[]): Promise<void> {
    await writeBisecting(changes, {
      write: (cs) => this.o.db.transaction((tx) => saveChanges(tx, cs)),
      groupOf: (c) => c.state.id,
      committed: () => void this.counts.flushes++,
      refused: ([c], err) => {
        this.o.onRefused(c!.state.id, err);
        this.live.delete(c!.state.id);
      },
    });
  }
}
