import { sql } from 'drizzle-orm';
import { PROVISION_TEXTS, type ProvisionDeviceEvent, type ProvisionFileStatus } from '@fleet/shared/provision';
import type { Db, Executor } from '../../db/client.ts';
import type { ProvisionBusEvent, StoredMark } from '../../lib/bus.ts';
import { isDeadlock } from '../../lib/db-errors.ts';
import { countersOf, rowsOf, type EventBody, type SessionRow } from './session-store.ts';

/** A report that arrived before one it follows waits up to EARLY_RETRIES × EARLY_WAIT_MS (3 s) for it. */
const EARLY_RETRIES = 120;
const EARLY_WAIT_MS = 25;

/** Flushes settle() and exclusive() wait through at most (each writes the oldest changes first). */
const MAX_SETTLE_FLUSHES = 200;

/**
 * Flush interval in sole mode: events are sent before they are written, so the interval sets how
 * far the database trails, not what a watcher waits for; fewer, larger transactions leave the
 * embedded database's thread more of the shared cores. A session's end is written at once.
 */
const SOLE_INTERVAL_MS = 100;

/**
 * Flush interval with several instances: a report's event waits for its flush to number it, so
 * the interval is what a lone report waits at least; under load a flush gathers what arrives
 * while the one before it is written, whatever the interval.
 */
const LOCKED_INTERVAL_MS = 5;

/** Events (and sessions) written per transaction at most in sole mode. */
const MAX_LIVE_WRITE = 1000;

/** A file's statuses in order: a report may only move a file forward (a repeat changes nothing). */
const FILE_RANK: Record<ProvisionFileStatus, number> = {
  pending: 0,
  queued: 1,
  downloading: 2,
  completed: 3,
  failed: 3,
};

interface Queued {
  device: string;
  /** The session, as the database spells it. */
  sid: string;
  e: ProvisionDeviceEvent;
  attempt: number;
  done(): void;
  fail(err: unknown): void;
}

interface FileState {
  device_path: string;
  filename: string;
  status: ProvisionFileStatus;
  error: string | null;
  ord: number;
  changed: boolean;
}

/** A locked session as a flush changes it in memory before one write. */
interface Work {
  row: SessionRow;
  files: FileState[];
  heard: boolean;
  ended: boolean;
  /** What the device row gets: its download line, or given back (the session ended). */
  download?: string | null;
  release: boolean;
  events: ProvisionBusEvent[];
}

/** What a flush's transaction did: events to relay, reports that came early, the sessions it changed. */
interface Applied {
  events: ProvisionBusEvent[];
  early: Queued[];
  touched: Work[];
}

/** A session row as raw SQL answers it, its counters made numbers. */
const numeric = (row: SessionRow): SessionRow => ({
  ...row,
  last_seq: Number(row.last_seq),
  device_seq: Number(row.device_seq),
  total_files: Number(row.total_files),
  completed_files: Number(row.completed_files),
  failed_files: Number(row.failed_files),
  downloading_files: Number(row.downloading_files),
});

/** The last event of each session among `events` (in order), as a stored mark. */
function storedMarks(events: ProvisionBusEvent[]): StoredMark[] {
  const last = new Map<string, StoredMark>();
  for (const e of events) last.set(e.session_id, { device: e.device, session_id: e.session_id, seq: e.seq });
  return [...last.values()];
}

/** A session's state with no change pending: what it is after a write. */
const fresh = (w: Work): Work => ({
  row: w.row,
  files: w.files.map((f) => ({ ...f, changed: false })),
  heard: false,
  ended: w.ended,
  release: false,
  events: [],
});

interface Options {
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
  /** Flush at least this often while reports arrive (LOCKED_INTERVAL_MS; SOLE_INTERVAL_MS in sole mode). */
  intervalMs?: number;
  /** Flush at once when this many reports are queued. */
  maxBatch?: number;
  /**
   * This instance alone applies reports (the embedded database has one owner): open sessions are
   * kept here once read, a report is applied to them at once and its events go out before they
   * are written; the writes follow in batches. Without it every flush locks the sessions in the
   * database, which numbers events whichever instance hears the device.
   */
  sole?: boolean;
}

/**
 * Device reports of provisioning sessions written in batches, as telemetry is: reports queue here
 * and one flush (every few ms, or at once when many are queued) applies all of them, of every
 * session, in ONE transaction with a constant number of statements: every touched open session
 * locked in one SELECT … FOR UPDATE (in id order, so flushes of two instances cannot deadlock),
 * their files read, the files' statuses, counters, event numbers and events worked out here,
 * then one statement writes files, sessions, devices and events. The row locks number events
 * without gaps whichever instance hears the device. The events go out on the bus as soon as they
 * are numbered, while the transaction writes them (as sole mode sends before writing): a watcher
 * does not wait for the write. Once committed, a `stored` mark per session lets a stream that
 * opened meanwhile (its catch-up did not find them yet) read them.
 */
export class ReportBatcher {
  private pending: Queued[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Reports that came early, each waiting for its next try. */
  private readonly early = new Map<NodeJS.Timeout, Queued>();
  private closing = false;
  private readonly intervalMs: number;
  private readonly maxBatch: number;
  /** Reports applied and flushes written, for the benchmark. */
  readonly counts = { reports: 0, flushes: 0 };
  /** Sole mode: open sessions as last applied here, with the changes not yet written. */
  private readonly live = new Map<string, Work>();
  /** Sole mode: sessions with changes to write, and the reports those changes answer. */
  private dirty = new Set<Work>();
  private applied: Queued[] = [];
  /** Sole mode: events sent but not yet written, by session (an event stream's catch-up reads them). */
  private readonly unwrittenBy = new Map<string, ProvisionBusEvent[]>();
  /** Sole mode: sessions that exclusive() holds; their reports wait here. */
  private readonly held = new Map<string, Queued[]>();
  private exclusiveChain: Promise<unknown> = Promise.resolve();
  /** A flush is waiting for the one in progress. */
  private queued = false;

  constructor(private readonly o: Options) {
    this.intervalMs = o.intervalMs ?? (o.sole ? SOLE_INTERVAL_MS : LOCKED_INTERVAL_MS);
    this.maxBatch = o.maxBatch ?? 2000;
  }

  /** Queues a device's report; resolves once it is applied (or ignored) and its events relayed. */
  add(device: string, e: ProvisionDeviceEvent, attempt = 0): Promise<void> {
    return new Promise((done, fail) => {
      const q: Queued = { device, sid: e.session_id.toLowerCase(), e, attempt, done, fail };
      const held = this.held.get(q.sid);
      if (held) return void held.push(q);
      const w = this.live.get(q.sid);
      if (w) return this.applyLive(w, q);
      this.pending.push(q);
      this.schedule();
    });
  }

  /** Sole mode: a session just started here is kept from its first report on (call before telling the device). */
  async adopt(session: string): Promise<void> {
    if (!this.o.sole) return;
    const sid = session.toLowerCase();
    const [row] = rowsOf<SessionRow>(
      await this.o.db.execute(sql`select * from provision_sessions where id = ${sid} and ended_at is null`),
    );
    if (!row) return;
    const files = rowsOf<Omit<FileState, 'changed'>>(
      await this.o.db.execute(sql`
        select device_path, filename, status, error, ord from provision_files where session_id = ${sid} order by ord`),
    );
    if (this.live.has(sid) || this.held.has(sid)) return;
    const w: Work = { row: numeric(row), files: [], heard: false, ended: false, release: false, events: [] };
    w.files = files.map((f) => ({ ...f, changed: false }));
    this.live.set(sid, w);
  }

  /**
   * Sole mode: resolves once the events of the device's sessions sent until now, and its reports
   * queued until now, are written (a read of the device's session follows). A flush writes the
   * oldest changes first and a bounded share, so this may take several.
   */
  async settle(device: string): Promise<void> {
    if (!this.o.sole) return;
    const marks = [...this.unwrittenBy]
      .filter(([, list]) => list[0]?.device === device)
      .map(([id, list]) => [id, list.at(-1)!.seq] as const);
    await this.flushUntil(
      () =>
        !marks.some(([id, seq]) => (this.unwrittenBy.get(id)?.[0]?.seq ?? Infinity) <= seq) &&
        !this.pending.some((q) => q.device === device),
    );
  }

  /** Flushes until `done()` holds (each flush writes the oldest changes first, a bounded share). */
  private async flushUntil(done: () => boolean): Promise<void> {
    for (let i = 0; i < MAX_SETTLE_FLUSHES; i++) {
      await this.flush();
      if (done()) return;
    }
  }

  /** Events of a session sent but not yet written (sole mode), oldest first. */
  unwritten(session: string): ProvisionBusEvent[] {
    return [...(this.unwrittenBy.get(session.toLowerCase()) ?? [])];
  }

  /**
   * Runs `fn` (a change to the session made in the database, such as cancel or timeout) with the
   * session's reports held: what was applied is written first and the session is read again
   * afterwards. Without sole mode the database's row lock does this.
   */
  exclusive<T>(session: string, fn: () => Promise<T>): Promise<T> {
    if (!this.o.sole) return fn();
    const sid = session.toLowerCase();
    const run = async () => {
      const waiting: Queued[] = [];
      this.held.set(sid, waiting);
      try {
        // Every change applied here is written before the database changes the session: none
        // may be written after it (its reports are held, so this ends).
        await this.flushUntil(
          () => ![...this.dirty].some((w) => w.row.id === sid) && !this.pending.some((q) => q.sid === sid),
        );
        this.live.delete(sid);
        return await fn();
      } finally {
        this.held.delete(sid);
        for (const q of waiting) this.add(q.device, q.e, q.attempt).then(q.done, q.fail);
      }
    };
    const result = this.exclusiveChain.then(run, run);
    this.exclusiveChain = result.catch(() => undefined);
    return result;
  }

  private schedule(): void {
    if (this.pending.length + this.applied.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Sole mode: applies a report to a session kept here, sends its events, and marks it for writing. */
  private applyLive(w: Work, q: Queued): void {
    // Not this session's device: ignored, as the database path ignores it.
    if (w.row.device !== q.device) return q.done();
    const n = q.e.n;
    if (n !== undefined && n > w.row.device_seq + 1 && q.attempt < EARLY_RETRIES && !this.closing)
      return this.retryLater(q);
    const before = w.events.length;
    if (n !== undefined && n <= w.row.device_seq) w.heard = true;
    else {
      if (n !== undefined) w.row.device_seq = n;
      this.report(w, q.e);
    }
    this.counts.reports++;
    this.dirty.add(w);
    this.applied.push(q);
    const fresh = w.events.slice(before);
    if (fresh.length > 0) {
      const list = this.unwrittenBy.get(w.row.id) ?? [];
      list.push(...fresh);
      this.unwrittenBy.set(w.row.id, list);
      void this.o.relay(fresh);
    }
    // Ended: later reports go the database's way, which finds the session closed once written
    // (written at once: start, cancel and reading a session first write what was applied).
    if (w.ended) {
      this.live.delete(w.row.id);
      return void this.flush();
    }
    this.schedule();
  }

  private retryLater(q: Queued): void {
    const t = setTimeout(() => {
      this.early.delete(t);
      this.add(q.device, q.e, q.attempt + 1).then(q.done, q.fail);
    }, EARLY_WAIT_MS);
    t.unref();
    this.early.set(t, q);
  }

  /** Applies what is queued; resolves when it is in the database (waits for a flush in progress first). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // The batch is taken when the flush before it has finished: while one is written the next
    // gathers everything that arrives, so a slow flush makes the next one bigger, not late. One
    // flush waits at most: it will take whatever is there when it starts.
    if (this.queued) return this.flushing;
    this.queued = true;
    this.flushing = this.flushing.then(async () => {
      this.queued = false;
      if (this.dirty.size > 0) await this.writeLive();
      // None is of a session kept here: add() applies those at once, and write() the ones queued
      // while their session was being read.
      const batch = this.pending;
      this.pending = [];
      if (batch.length > 0) await this.write(batch);
      // More changes than one write takes: the next flush starts at once.
      if (this.dirty.size > 0) void this.flush();
    });
    return this.flushing;
  }

  /** Shutdown: reports waiting for one they follow are applied now, then everything queued. */
  async close(): Promise<void> {
    this.closing = true;
    await this.flushing;
    for (const [t, q] of this.early) {
      clearTimeout(t);
      this.add(q.device, q.e, EARLY_RETRIES).then(q.done, q.fail);
    }
    this.early.clear();
    await this.flush();
  }

  /**
   * Runs `transaction` over the items; when the database refuses it, the items are split by
   * session and each half tried on its own (a deadlock is retried first), so one session's bad
   * report never costs another session its reports. `committed` follows each transaction that
   * commits; a session refused even alone is logged and its items go to `refused`.
   */
  private async bySession<T, R>(
    items: T[],
    sessionOf: (item: T) => string,
    transaction: (items: T[]) => Promise<R>,
    committed: (items: T[], result: R) => Promise<void> | void,
    refused: (items: T[], err: unknown) => void,
    attempt = 1,
  ): Promise<void> {
    let result: R;
    try {
      result = await transaction(items);
    } catch (err) {
      if (isDeadlock(err) && attempt < 3)
        return this.bySession(items, sessionOf, transaction, committed, refused, attempt + 1);
      const sessions = [...new Set(items.map(sessionOf))];
      if (sessions.length > 1) {
        const first = new Set(sessions.slice(0, sessions.length >> 1));
        await this.bySession(
          items.filter((x) => first.has(sessionOf(x))),
          sessionOf,
          transaction,
          committed,
          refused,
        );
        return this.bySession(
          items.filter((x) => !first.has(sessionOf(x))),
          sessionOf,
          transaction,
          committed,
          refused,
        );
      }
      this.o.onRefused(sessions[0]!, err);
      return refused(items, err);
    }
    await committed(items, result);
  }

  /** Writes a batch of reports (bySession); a session refused even alone loses them (logged). */
  private write(batch: Queued[]): Promise<void> {
    return this.bySession(
      batch,
      (q) => q.sid,
      (b) => this.o.db.transaction((tx) => this.apply(tx, b)),
      (b, result) => this.afterCommit(b, result),
      (b, err) => b.forEach((q) => q.fail(err)),
    );
  }

  /** After a batch's transaction: counts, its events out (sole mode) or marked stored, its reports answered. */
  private async afterCommit(batch: Queued[], result: Applied): Promise<void> {
    this.counts.flushes++;
    this.counts.reports += batch.length - result.early.length;
    if (this.o.sole) await this.o.relay(result.events);
    else if (result.events.length > 0) await this.o.stored?.(storedMarks(result.events));
    const early = new Set(result.early);
    for (const q of batch) if (!early.has(q)) q.done();
    for (const q of result.early) this.retryLater(q);
    // Sole mode: the sessions just read stay here, so their next reports need no database first.
    if (!this.o.sole) return;
    const read = new Set<string>();
    for (const w of result.touched)
      if (!w.ended && !this.held.has(w.row.id) && !this.live.has(w.row.id)) {
        this.live.set(w.row.id, fresh(w));
        read.add(w.row.id);
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

  /** Sole mode: writes the changes of the sessions kept here, in one transaction like a flush. */
  private async writeLive(): Promise<void> {
    // The oldest changes first, a bounded share per transaction: the embedded database's one
    // connection is free between them for the other queries (an event stream's catch-up).
    const taken: Work[] = [];
    let size = 0;
    for (const w of this.dirty) {
      taken.push(w);
      size += w.events.length + 1;
      if (size >= MAX_LIVE_WRITE) break;
    }
    for (const w of taken) this.dirty.delete(w);
    const ids = new Set(taken.map((w) => w.row.id));
    const reports = this.applied.filter((q) => ids.has(q.sid));
    this.applied = this.applied.filter((q) => !ids.has(q.sid));
    const works = taken.map((w) => {
      const snapshot: Work = {
        ...w,
        row: { ...w.row },
        files: w.files.filter((f) => f.changed).map((f) => ({ ...f })),
      };
      Object.assign(w, fresh(w));
      delete w.download;
      return snapshot;
    });
    const failed = await this.store(works);
    for (const w of works) {
      const written = w.events.at(-1)?.seq ?? 0;
      const still = (this.unwrittenBy.get(w.row.id) ?? []).filter((e) => e.seq > written);
      if (still.length > 0) this.unwrittenBy.set(w.row.id, still);
      else this.unwrittenBy.delete(w.row.id);
    }
    for (const q of reports) {
      const err = failed.get(q.sid);
      if (err === undefined) q.done();
      else q.fail(err);
    }
  }

  /**
   * Writes works (bySession). A session refused even alone is dropped from memory (its next
   * report reads it again). Answers the refused sessions.
   */
  private async store(works: Work[]): Promise<Map<string, unknown>> {
    const refused = new Map<string, unknown>();
    await this.bySession(
      works,
      (w) => w.row.id,
      (ws) =>
        this.o.db.transaction((tx) =>
          this.save(
            tx,
            ws,
            ws.flatMap((w) => w.events),
          ),
        ),
      () => void this.counts.flushes++,
      ([w], err) => {
        this.live.delete(w!.row.id);
        refused.set(w!.row.id, err);
      },
    );
    return refused;
  }

  /** One transaction: lock, read, work out in memory, write. Answers the events and the reports that came early. */
  private async apply(tx: Executor, batch: Queued[]): Promise<Applied> {
    const ids = [...new Set(batch.map((q) => q.sid))].sort();
    const rows = rowsOf<SessionRow>(
      await tx.execute(sql`
        select * from provision_sessions
        where id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) as v)
          and ended_at is null
        order by id
        for update`),
    );
    if (rows.length === 0) return { events: [], early: [], touched: [] };
    // Only the files the reports name (a final report names each file's result), and the
    // unfinished files of a session that ends here (they fail); the counters on the session row
    // are kept up to date change by change. Sole mode keeps the sessions read here, so it reads
    // all their files.
    const open = new Set(rows.map((r) => String(r.id)));
    const sessionsWhere = (keep: (q: Queued) => boolean) => [
      ...new Set(batch.filter((q) => open.has(q.sid) && keep(q)).map((q) => q.sid)),
    ];
    const whole = this.o.sole ? sessionsWhere(() => true) : [];
    const ending = this.o.sole ? [] : sessionsWhere((q) => q.e.phase === 'completed' || q.e.phase === 'failed');
    const named = batch.flatMap((q) => {
      if (!open.has(q.sid)) return [];
      if (q.e.phase === 'file') return [{ session_id: q.sid, device_path: q.e.device_path }];
      if (q.e.phase === 'completed')
        return (q.e.results ?? []).map((r) => ({ session_id: q.sid, device_path: r.device_path }));
      return [];
    });
    const files = rowsOf<{ session_id: string } & Omit<FileState, 'changed'>>(
      await tx.execute(sql`
        select f.session_id::text as session_id, f.device_path, f.filename, f.status, f.error, f.ord
        from provision_files f
        where f.session_id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(whole)}::jsonb) as v)
          or f.session_id in (select v::uuid from jsonb_array_elements_text(${JSON.stringify(ending)}::jsonb) as v)
            and f.status not in ('completed', 'failed')
          or (f.session_id, f.device_path) in (
            select v.session_id, v.device_path
            from jsonb_to_recordset(${JSON.stringify(named)}::jsonb) as v(session_id uuid, device_path text))
        order by f.session_id, f.ord`),
    );
    const work = new Map<string, Work>();
    for (const row of rows)
      work.set(String(row.id), {
        row: numeric(row),
        files: [],
        heard: false,
        ended: false,
        release: false,
        events: [],
      });
    for (const f of files) work.get(f.session_id)?.files.push({ ...f, changed: false });

    // Each session's reports in the device's order: numbered ones by `n`, the others where they arrived.
    const bySession = new Map<string, Queued[]>();
    for (const q of batch) {
      const w = work.get(q.sid);
      if (!w || w.row.device !== q.device) continue;
      const list = bySession.get(q.sid) ?? [];
      list.push(q);
      bySession.set(q.sid, list);
    }
    const early: Queued[] = [];
    const events: ProvisionBusEvent[] = [];
    for (const [id, list] of bySession) {
      const at = list.flatMap((q, i) => (q.e.n === undefined ? [] : [i]));
      const numbered = at.map((i) => list[i]!).sort((a, b) => a.e.n! - b.e.n!);
      at.forEach((i, k) => (list[i] = numbered[k]!));
      const w = work.get(id)!;
      for (const q of list) {
        if (w.ended) break;
        const n = q.e.n;
        if (n !== undefined) {
          if (n <= w.row.device_seq) {
            w.heard = true;
            continue;
          }
          // One it follows is missing (behind it here, or on another instance): wait a moment.
          if (n > w.row.device_seq + 1 && q.attempt < EARLY_RETRIES && !this.closing) {
            early.push(q);
            continue;
          }
          w.row.device_seq = n;
        }
        this.report(w, q.e);
      }
      events.push(...w.events);
    }

    const touched = [...work.values()].filter((w) => bySession.has(w.row.id));
    if (touched.length === 0) return { events: [], early, touched: [] };
    // Numbered: out now, while they are written. Should the transaction be refused, its retry
    // numbers the same reports alike (streams drop what they already have); a session refused
    // even alone is logged as dropped, as in sole mode.
    if (!this.o.sole && events.length > 0) void this.o.relay(events);
    await this.save(tx, touched, events);
    return { events, early, touched };
  }

  /** One statement writes the works' files, sessions, devices and events. */
  private async save(tx: Executor, touched: Work[], events: ProvisionBusEvent[]): Promise<void> {
    const fileRows = touched.flatMap((w) =>
      w.files
        .filter((f) => f.changed)
        .map((f) => ({ session_id: w.row.id, device_path: f.device_path, status: f.status, error: f.error })),
    );
    const sessionRows = touched.map((w) => ({
      id: w.row.id,
      status: w.row.status,
      error: w.row.error,
      last_seq: w.row.last_seq,
      device_seq: w.row.device_seq,
      ...countersOf(w.row),
      heard: w.heard,
      ended: w.ended,
    }));
    const deviceRows = touched
      .filter((w) => w.release || w.download !== undefined)
      .map((w) => ({
        name: w.row.device,
        session_id: w.row.id,
        release: w.release,
        download: w.release ? null : (w.download ?? null),
        prior_state: w.row.prior_state,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const eventRows = events.map((e) => ({ session_id: e.session_id, seq: e.seq, event: e.event, data: e.data }));
    await tx.execute(sql`
      with f as (
        update provision_files f set status = v.status, error = v.error
        from jsonb_to_recordset(${JSON.stringify(fileRows)}::jsonb)
          as v(session_id uuid, device_path text, status text, error text)
        where f.session_id = v.session_id and f.device_path = v.device_path
        returning 1),
      s as (
        update provision_sessions s set
          status = v.status, error = v.error, last_seq = v.last_seq, device_seq = v.device_seq,
          total_files = v.total_files, completed_files = v.completed_files, failed_files = v.failed_files,
          downloading_files = v.downloading_files,
          heard_at = case when v.heard then now() else s.heard_at end,
          ended_at = case when v.ended then now() else s.ended_at end
        from jsonb_to_recordset(${JSON.stringify(sessionRows)}::jsonb)
          as v(id uuid, status text, error text, last_seq int, device_seq int, total_files int,
               completed_files int, failed_files int, downloading_files int, heard boolean, ended boolean)
        where s.id = v.id
        returning 1),
      d as (
        update devices d set
          current_download = v.download,
          current_provision = case when v.release then null else d.current_provision end,
          state_current = case when v.release and d.state_current = 'PROVISIONING' then v.prior_state
            else d.state_current end
        from jsonb_to_recordset(${JSON.stringify(deviceRows)}::jsonb)
          as v(name text, session_id text, release boolean, download text, prior_state text)
        where d.name = v.name and d.current_provision = v.session_id
        returning 1),
      e as (
        insert into provision_events (session_id, seq, event, data)
        select v.session_id, v.seq, v.event, v.data
        from jsonb_to_recordset(${JSON.stringify(eventRows)}::jsonb)
          as v(session_id uuid, seq int, event text, data jsonb)
        returning 1)
      select (select count(*) from f) as files, (select count(*) from s) as sessions,
             (select count(*) from d) as devices, (select count(*) from e) as events`);
  }

  /** Applies one report to a session in memory (docs/device-protocol.md "Provisioning"). */
  private report(w: Work, e: ProvisionDeviceEvent): void {
    switch (e.phase) {
      case 'ready':
        w.heard = true;
        // Said again (a redelivery): heard, nothing new.
        if (w.row.status !== 'provision_started') return;
        w.row.status = 'in_progress';
        return this.append(w, {
          event: 'provisioning_ready',
          data: { status: 'in_progress', message: 'The device is ready' },
        });
      case 'file': {
        w.heard = true;
        const file = w.files.find((f) => f.device_path === e.device_path);
        // Only forward: a repeat or a late report changes nothing.
        if (!file || FILE_RANK[file.status] >= FILE_RANK[e.status]) return;
        this.move(w, file, e.status, e.error ?? null);
        w.row.status = 'in_progress';
        w.download =
          e.status === 'downloading'
            ? `${file.filename} (${w.row.completed_files + w.row.failed_files + 1}/${w.row.total_files})`
            : null;
        return this.append(w, {
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
        w.heard = true;
        w.row.status = 'provision_finalizing';
        return this.append(w, {
          event: 'provision_finalizing',
          data: { status: 'provision_finalizing', message: 'Finalizing' },
        });
      case 'completed': {
        w.heard = true;
        // The device's final word on each file holds whatever order its earlier reports came in.
        for (const r of e.results ?? []) {
          const file = w.files.find((f) => f.device_path === r.device_path);
          if (!file || file.status === 'completed' || file.status === 'failed') continue;
          this.move(w, file, r.status, r.error ?? file.error);
        }
        this.failUnfinished(w, 'The device finished without it');
        const total = w.row.total_files;
        const outcome =
          w.row.completed_files === total ? 'success' : w.row.failed_files === total ? 'failed' : 'partial';
        const error =
          outcome === 'success' ? null : outcome === 'failed' ? PROVISION_TEXTS.allFailed : PROVISION_TEXTS.partial;
        w.row.status = outcome === 'success' ? 'provision_completed' : 'provision_failed';
        w.row.error = error;
        this.end(w);
        const message =
          outcome === 'success'
            ? `Provisioning complete: ${total} of ${total} files`
            : `${error}: ${w.row.completed_files} of ${total} files`;
        return this.append(w, {
          event: 'provision_completed',
          data: { status: w.row.status, outcome, error, message },
        });
      }
      case 'failed': {
        const error = e.error ?? 'The device reported a failure';
        this.failUnfinished(w, error);
        w.row.status = 'provision_failed';
        w.row.error = error;
        this.end(w);
        return this.append(w, {
          event: 'provision_failed',
          data: { status: 'provision_failed', error, message: `Provisioning failed: ${error}` },
        });
      }
    }
  }

  private failUnfinished(w: Work, error: string): void {
    for (const f of w.files) {
      if (f.status === 'completed' || f.status === 'failed') continue;
      this.move(w, f, 'failed', f.error ?? error);
    }
  }

  /** A file's new status; the session's counters follow. */
  private move(w: Work, f: FileState, status: ProvisionFileStatus, error: string | null): void {
    const count = (st: ProvisionFileStatus, by: number) => {
      if (st === 'completed') w.row.completed_files += by;
      else if (st === 'failed') w.row.failed_files += by;
      else if (st === 'downloading') w.row.downloading_files += by;
    };
    count(f.status, -1);
    count(status, 1);
    f.status = status;
    f.error = error;
    f.changed = true;
  }

  private end(w: Work): void {
    w.ended = true;
    w.release = true;
    w.download = null;
  }

  /** Numbers an event after the session's last one; it carries the session, the device and the counters. */
  private append(w: Work, body: EventBody): void {
    w.row.last_seq += 1;
    w.events.push({
      device: w.row.device,
      session_id: w.row.id,
      seq: w.row.last_seq,
      event: body.event,
      data: { session_id: w.row.id, deviceId: w.row.device, ...countersOf(w.row), ...body.data },
    });
  }
}
