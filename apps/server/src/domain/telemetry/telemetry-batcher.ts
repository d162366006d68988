import type { StateReport } from '@fleet/shared/protocol';
import type { Db } from '../../db/client.ts';
import { writeBisecting } from '../../lib/batching/bisecting-writer.ts';
import { ChunkSizer } from '../../lib/batching/chunk-sizer.ts';
import { FlushLoop, takeAll } from '../../lib/batching/flush-loop.ts';
import { isDataError } from '../../lib/db-errors.ts';
import { updateDevices, type DeviceNews, type HistoryPoint, type UpdatedDevice } from './telemetry-queries.ts';

/**
 * What is known of one device since the last flush; later reports win field by field. `presence`
 * is the last presence point's, so a run of reports from a connected device adds one at most.
 */
type Pending = DeviceNews & { presence?: boolean };

export interface Woken {
  name: string;
  entity: string;
}

interface Options {
  /** Flush at least this often while reports arrive. */
  intervalMs?: number;
  /** Flush at once when this many devices are pending. */
  maxBatch?: number;
  /** Devices that came online in a flush: what they are owed is delivered now. */
  onWoken(devices: Woken[]): void;
  /** The database refused one device's report even alone; its sign of life was still written. */
  onRefused(name: string, err: unknown): void;
  onError(err: unknown): void;
  /** Whether reports and presence are kept as history (device_telemetry); on unless said. */
  history?: boolean;
}

/**
 * A bare sign of life from a device whose last one was queued within this long (up to twice it)
 * is not queued again: the database would not change for it (SEEN_RESOLUTION in
 * telemetry-queries.ts), and at ten reports a second per device the queue, the batch's JSON and
 * the database's filter were work for nothing.
 */
const SIGN_OF_LIFE_EVERY_MS = 1_000;

/**
 * The most devices one statement of a flush writes. The embedded database has one connection and
 * an operator's query cannot preempt a running statement, so a flush of 2,000 devices (up to
 * 250 ms under load, docs/rollouts.md "Bench") is written as statements of this many, one after
 * another, and a query waits for one of them at most. Fewer when statements of this many take
 * longer than the target (ChunkSizer), down to FLUSH_CHUNK_MIN.
 */
export const FLUSH_CHUNK = 250;
const FLUSH_CHUNK_MIN = 50;

/**
 * Merges state reports and presence into the device table in batches: one UPDATE per FLUSH_CHUNK
 * devices heard from since the last flush, never a transaction per message. The server's
 * receive time is the last-seen time that drives the 20-minute rule; a row changes only when
 * something in it does, or its last-seen time is more than SEEN_RESOLUTION old.
 */
export class TelemetryBatcher {
  private readonly pending = new Map<string, Pending>();
  /**
   * Takes its batch when the write before it has finished: while the database is behind, a
   * device's reports merge into its one pending entry (one row, all its history points) instead
   * of a queue of 50 ms batches that writes a row a report and falls further behind (at 10,000
   * devices flat out nearly every report was a row of its own, bench/notes/ingest.md s24e). The
   * other queries still wait for one statement of FLUSH_CHUNK devices at most.
   * The metrics read its depth and time its writes.
   */
  readonly loop: FlushLoop<Pending[]>;
  /**
   * Messages merged, rows written, flushes (one a batch the loop writes, as the metrics count them)
   * and the statements they took (one a chunk), for the health figures and the benchmark.
   */
  readonly counts = { merged: 0, flushed: 0, flushes: 0, statements: 0 };
  /** Devices whose sign of life was queued in this SIGN_OF_LIFE_EVERY_MS period, and in the one before. */
  private heard = new Set<string>();
  private heardBefore = new Set<string>();
  private heardSince = Date.now();
  /** The millisecond of the last history point, and its place in it (microsecond()). */
  private stamp = { ms: 0, us: 0 };
  /** Whether flushes append history; the ingest benchmark turns it off for its baseline. */
  history: boolean;
  /** The most devices a statement writes (FLUSH_CHUNK; a test lowers it). */
  chunk = FLUSH_CHUNK;
  /** Devices the next statement writes, up to `chunk`: as many as a statement of the target's length. */
  private readonly sizer = new ChunkSizer({ initial: FLUSH_CHUNK, min: FLUSH_CHUNK_MIN, max: FLUSH_CHUNK });
  /** Told the rows each flush changed, after it is written (alert evaluation follows them). */
  private readonly changedListeners: Array<(rows: UpdatedDevice[]) => void> = [];

  constructor(
    private readonly db: Db,
    private readonly opts: Options,
  ) {
    this.history = opts.history ?? true;
    this.loop = new FlushLoop({
      take: 'when-flush-starts',
      intervalMs: opts.intervalMs ?? 50,
      maxBatch: opts.maxBatch ?? 2000,
      collect: () => takeAll(this.pending),
      write: (batch) => this.write(batch),
      onError: opts.onError,
    });
  }

  /**
   * A state report (or any sign of life, with an empty report). `alive` false: state a reply
   * carried, merged once its command settled, when the device may be gone (a bricked one is): the
   * reply was its sign of life when it arrived, so this one changes neither presence nor last-seen.
   */
  report(name: string, report: StateReport = {}, at = new Date(), alive = true): void {
    const reported =
      report.state !== undefined ||
      report.fw_version !== undefined ||
      report.battery !== undefined ||
      report.is_charging !== undefined;
    if (!alive) {
      if (!reported) return;
      this.merge(this.entry(name), report, at);
      this.counts.merged++;
      return this.loop.added(this.pending.size);
    }
    const bare = !reported && report.online === undefined;
    if (bare && this.heardLately(name, at.getTime())) {
      this.counts.merged++;
      return;
    }
    if (report.online === false) this.forget(name);
    const entry = this.entry(name);
    if (report.online !== false) this.point(entry, 'online', at);
    if (reported) this.merge(entry, report, at);
    if (report.online === false) this.point(entry, 'offline', at);
    // A device that speaks is connected, unless what it says is that it is leaving.
    entry.online = report.online ?? true;
    if (report.online !== false) entry.seen_at = at.toISOString();
    this.counts.merged++;
    this.loop.added(this.pending.size);
  }

  /** Merges a report's fields into the device's pending news, with its history point. */
  private merge(entry: Pending, report: StateReport, at: Date): void {
    const before = { prev_state: entry.state, prev_fw: entry.fw_version, prev_charging: entry.is_charging };
    if (report.state !== undefined) entry.state = report.state;
    if (report.fw_version !== undefined) entry.fw_version = report.fw_version;
    if (report.battery !== undefined) entry.battery = report.battery;
    if (report.is_charging !== undefined) entry.is_charging = report.is_charging;
    this.point(entry, 'state', at, { ...before, device_at: deviceTime(report.ts) });
  }

  /** The broker saw the device connect (a sign of life) or go. */
  presence(name: string, online: boolean, at = new Date()): void {
    if (!online) this.forget(name);
    const entry = this.entry(name);
    this.point(entry, online ? 'online' : 'offline', at);
    entry.online = online;
    if (online) entry.seen_at = at.toISOString();
    this.loop.added(this.pending.size);
  }

  /**
   * Appends a history point: a report with the fields known so far in this flush, or a presence
   * change (a presence point repeating the last one of the flush is not added; the statement drops
   * a first one that repeats the row).
   */
  private point(entry: Pending, kind: HistoryPoint['kind'], at: Date, extra: Partial<HistoryPoint> = {}): void {
    if (!this.history) return;
    const points = (entry.points ??= []);
    if (kind === 'state') {
      const { state, fw_version, battery, is_charging } = entry;
      points.push({
        at: at.toISOString(),
        us: this.microsecond(at),
        kind,
        state,
        fw_version,
        battery,
        is_charging,
        ...extra,
      });
      return;
    }
    const online = kind === 'online';
    if (entry.presence === online) return;
    points.push({
      at: at.toISOString(),
      us: this.microsecond(at),
      kind,
      first: entry.presence === undefined || undefined,
    });
    entry.presence = online;
  }

  /**
   * A point's place within its millisecond: 0 for the first point stamped in it, then 1, 2…, so
   * that two reports in one millisecond read back in the order they came even when they are
   * written by different flushes.
   */
  private microsecond(at: Date): number {
    const ms = at.getTime();
    if (ms !== this.stamp.ms) this.stamp = { ms, us: 0 };
    else if (this.stamp.us < 999) this.stamp.us++;
    return this.stamp.us;
  }

  /**
   * Resolves once what is known of the device is in the database: pending news of it is flushed
   * now, and a flush already writing it is waited for. Readers that must not act on a stale
   * `online` (provisioning) call it first.
   */
  settle(name: string): Promise<void> {
    return this.pending.has(name) ? this.flush() : this.loop.settled();
  }

  /** Calls `listener` with the device rows each flush changed. */
  onChanged(listener: (rows: UpdatedDevice[]) => void): void {
    this.changedListeners.push(listener);
  }

  /** Writes everything pending; resolves when it is in the database. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** Whether the device's sign of life was queued lately; notes it when not. */
  private heardLately(name: string, now: number): boolean {
    const age = now - this.heardSince;
    // A clock that stepped back starts afresh: nothing is held on a time that has not come.
    if (age >= SIGN_OF_LIFE_EVERY_MS || age < 0) {
      this.heardBefore = age >= 0 && age < 2 * SIGN_OF_LIFE_EVERY_MS ? this.heard : new Set();
      this.heard = new Set();
      this.heardSince = now;
    }
    if (this.heard.has(name) || this.heardBefore.has(name)) return true;
    this.heard.add(name);
    return false;
  }

  /** Gone (or leaving): its next sign of life is queued whenever it comes. */
  private forget(name: string): void {
    this.heard.delete(name);
    this.heardBefore.delete(name);
  }

  private entry(name: string): Pending {
    let entry = this.pending.get(name);
    if (!entry) {
      entry = { name };
      this.pending.set(name, entry);
    }
    return entry;
  }

  /**
   * Writes a batch as statements of up to `chunk` devices each, in name order across them (one
   * order for every instance). A device is in one chunk of a batch, and batches are written one
   * after another, so its news still arrive in the order they came.
   */
  private async write(batch: Pending[]): Promise<void> {
    batch.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.counts.flushes++;
    for (let i = 0; i < batch.length;) {
      const part = batch.slice(i, i + Math.min(this.chunk, this.sizer.size));
      const started = performance.now();
      await this.writeChunk(part);
      this.sizer.observe(part.length, performance.now() - started);
      i += part.length;
    }
  }

  /**
   * Writes a chunk. When the database refuses the values of one report, the chunk is split and
   * each half written on its own, so one device's bad report never costs another device its data;
   * the culprit keeps its sign of life and loses only what it said.
   */
  private writeChunk(batch: Pending[]): Promise<void> {
    return writeBisecting(batch, {
      write: (items) => this.update(items),
      refuses: isDataError,
      failed: (_items, err) => this.opts.onError(err),
      refused: ([only], err) => {
        if (!only) return;
        this.opts.onRefused(only.name, err);
        const life: Pending = { name: only.name, online: only.online, seen_at: only.seen_at };
        if (Object.keys(only).length > Object.keys(life).length) return this.writeChunk([life]);
      },
    });
  }

  private async update(batch: Pending[]): Promise<void> {
    const rows = await updateDevices(this.db, batch);
    this.counts.flushed += rows.length;
    this.counts.statements++;
    const woken = rows.filter((r) => r.online && !r.was_online).map(({ name, entity }) => ({ name, entity }));
    if (woken.length > 0) this.opts.onWoken(woken);
    if (rows.length > 0) for (const listener of this.changedListeners) listener(rows);
  }
}

/** The device's clock (`ts`, epoch ms) as ISO, when it is a time a timestamp can hold. */
function deviceTime(ts: number | undefined): string | undefined {
  if (ts === undefined) return undefined;
  const date = new Date(ts);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
