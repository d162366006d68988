import type { ServerResponse } from 'node:http';
import { FINAL_EVENTS, SSE_HEARTBEAT_MS, eventId, type ProvisionEventName } from '@fleet/shared/provision';
import type { Db } from '../../db/client.ts';
import type { Bus, ProvisionBusEvent } from '../../lib/bus.ts';
import { eventsAfter, sessionEnded } from './session-store.ts';

/** What the report batcher knows of a session's events before the database does (sole-reports.ts). */
export interface KnownEvents {
  /** Events sent but not yet written, oldest first. */
  unwritten(session: string): ProvisionBusEvent[];
}

const nothingKnown: KnownEvents = { unwritten: () => [] };

/**
 * Every event of a session after `cursor`, and whether the session is over: the stored events and
 * those sent but not yet written (taken first: one written meanwhile is then among the stored).
 */
async function eventsSince(db: Db, known: KnownEvents, session: string, cursor: number) {
  const pending = known.unwritten(session);
  const ended = await sessionEnded(db, session);
  const stored = await eventsAfter(db, session, cursor);
  const last = stored.at(-1)?.seq ?? cursor;
  return { events: [...stored, ...pending.filter((e) => e.seq > last)], ended };
}

/** One open `…/events` response following one session from `cursor` (the last event it wrote). */
class Stream {
  private chain: Promise<void> = Promise.resolve();
  /** Steps queued on the chain and not yet finished. */
  private queued = 0;
  private heartbeat: NodeJS.Timeout;
  /** Resumed after an event this stream never wrote itself, and nothing written since. */
  private resumedBlind: boolean;
  closed = false;

  constructor(
    private readonly db: Db,
    private readonly known: KnownEvents,
    readonly device: string,
    readonly session: string,
    private cursor: number,
    private readonly res: ServerResponse,
    private readonly onClose: (s: Stream) => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.resumedBlind = cursor > 0;
    this.heartbeat = setInterval(() => this.res.write(': heartbeat\n\n'), SSE_HEARTBEAT_MS);
    this.heartbeat.unref();
    res.on('close', () => this.close());
  }

  /**
   * Sends what the stream missed: every stored event after the cursor. A session that had ended
   * before has all its events stored: the stream closes after them even if its final event was
   * already seen (a reconnect right after it).
   */
  catchUp(): void {
    this.enqueue(() => this.readMissed());
  }

  /**
   * A live event: written when it is the next one; a gap is filled from the database first. With
   * several instances an event may go out before it is stored: then it is written only if what
   * was read reaches just before it, and otherwise its stored mark (`stored`) brings it.
   */
  offer(e: ProvisionBusEvent): void {
    // The usual case, written at once: nothing ahead of it and no gap.
    if (this.queued === 0 && e.seq === this.cursor + 1) return this.writeAll([e]);
    this.enqueue(async () => {
      if (e.seq <= this.cursor) return;
      if (e.seq > this.cursor + 1)
        this.writeAll((await eventsSince(this.db, this.known, this.session, this.cursor)).events);
      if (e.seq === this.cursor + 1) this.writeAll([e]);
    });
  }

  /**
   * The session's events are stored up to `seq`: a stream behind them reads what it missed. A
   * stream resumed at `seq` and silent since asks too: the event it resumed after may have been
   * the final one, seen on another instance before the session's end was stored.
   */
  stored(seq: number): void {
    const behind = () => seq > this.cursor || (seq === this.cursor && this.resumedBlind);
    if (this.closed || !behind()) return;
    this.enqueue(async () => {
      if (behind()) await this.readMissed();
    });
  }

  write(event: ProvisionEventName, id: string, data: unknown): void {
    this.res.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.onClose(this);
    if (!this.res.writableEnded) this.res.end();
  }

  /** Writes every event after the cursor, stored or known; closes when the session is over. */
  private async readMissed(): Promise<void> {
    const { events, ended } = await eventsSince(this.db, this.known, this.session, this.cursor);
    this.writeAll(events);
    if (ended || events.some((e) => FINAL_EVENTS.includes(e.event as ProvisionEventName))) this.close();
  }

  private writeAll(events: ProvisionBusEvent[]): void {
    for (const e of events) {
      if (this.closed || e.seq <= this.cursor) continue;
      this.cursor = e.seq;
      this.resumedBlind = false;
      this.write(e.event as ProvisionEventName, eventId(e.session_id, e.seq), e.data);
      if (FINAL_EVENTS.includes(e.event as ProvisionEventName)) this.close();
    }
  }

  private enqueue(step: () => Promise<void>): void {
    this.queued++;
    this.chain = this.chain
      .then(step)
      .catch((err) => {
        this.onError(err);
        this.close();
      })
      .finally(() => this.queued--);
  }
}

/**
 * The open provisioning event streams of this instance, by device. Every event reaches them
 * through the bus (Redis between instances), so a watcher here sees what another heard; stored
 * marks follow each flush for streams that missed an event sent before it was stored.
 */
export class EventStreams {
  private readonly byDevice = new Map<string, Set<Stream>>();

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly onError: (err: unknown) => void,
    private readonly known: KnownEvents = nothingKnown,
  ) {
    bus.subscribe('provision.events', ({ events }) => {
      for (const e of events)
        for (const s of this.byDevice.get(e.device) ?? []) if (s.session === e.session_id) s.offer(e);
    });
    bus.subscribe('provision.stored', ({ marks }) => {
      for (const m of marks)
        for (const s of this.byDevice.get(m.device) ?? []) if (s.session === m.session_id) s.stored(m.seq);
    });
  }

  /** How many streams are open here. */
  get size(): number {
    let n = 0;
    for (const set of this.byDevice.values()) n += set.size;
    return n;
  }

  /**
   * Opens a stream on `res` for session `session` of `device` after event `cursor`: a `connection`
   * event, then every stored event after the cursor, then live ones until a final event.
   */
  open(res: ServerResponse, device: string, session: string, cursor: number): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    const stream = new Stream(this.db, this.known, device, session, cursor, res, (s) => this.forget(s), this.onError);
    let set = this.byDevice.get(device);
    if (!set) this.byDevice.set(device, (set = new Set()));
    set.add(stream);
    res.write('retry: 2000\n\n');
    stream.write('connection', eventId(session, cursor), {
      session_id: session,
      deviceId: device,
      status: 'connected',
    });
    stream.catchUp();
  }

  /** Ends every open stream at once (server shutdown). */
  closeAll(): void {
    for (const set of [...this.byDevice.values()]) for (const s of [...set]) s.close();
  }

  private forget(s: Stream): void {
    const set = this.byDevice.get(s.device);
    set?.delete(s);
    if (set?.size === 0) this.byDevice.delete(s.device);
  }
}
