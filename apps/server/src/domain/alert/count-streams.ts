import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Bus } from '../../lib/bus.ts';
import { countAlerts } from './count-alerts.ts';

/** Changes within this long are told as one recount: a burst of alerts costs one query per entity. */
const RECOUNT_MS = 250;
/** A comment this often keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;

/**
 * The header's live alert count: Server-Sent Events (`count` with `{active, acknowledged}`) per
 * entity. Any instance that changes alerts tells the bus; every instance recounts each entity it
 * has streams for, once per burst, and writes the figures to them.
 */
export class AlertCountStreams {
  private readonly byEntity = new Map<string, Set<ServerResponse>>();
  private readonly due = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly keepalive: NodeJS.Timeout;
  private seq = 0;

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly onError: (err: unknown) => void,
  ) {
    bus.subscribe('alerts.changed', ({ entities }) => this.recountSoon(entities));
    // Rollout pauses and provisioning ends raise alerts inside their own transactions; their
    // after-commit news is the cue to recount (one query per burst, only for entities streamed).
    bus.subscribe('rollouts.changed', ({ entity }) => this.recountSoon([entity]));
    bus.subscribe('provision.stored', ({ marks }) => void this.recountDevices(marks.map((m) => m.device)));
    // A session the server ends (its sweep's timeout, a failed start) is told after its commit.
    bus.subscribe('provision.events', ({ events }) => {
      const ended = events.filter((e) => e.event === 'timeout' || e.event === 'provision_failed');
      if (ended.length > 0) void this.recountDevices(ended.map((e) => e.device));
    });
    this.keepalive = setInterval(() => {
      for (const set of this.byEntity.values()) for (const res of set) res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /** Streams the entity's count on `res`: the figures now, then each change. */
  async open(res: ServerResponse, entity: string): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    let set = this.byEntity.get(entity);
    if (!set) this.byEntity.set(entity, (set = new Set()));
    set.add(res);
    res.once('close', () => {
      set.delete(res);
      if (set.size === 0 && this.byEntity.get(entity) === set) this.byEntity.delete(entity);
    });
    res.write('retry: 2000\n\n');
    this.write([res], await countAlerts(this.db, entity));
  }

  private recountSoon(entities: Iterable<string>): void {
    for (const e of entities) if (this.byEntity.has(e)) this.due.add(e);
    if (this.due.size > 0 && this.timer === null) this.timer = setTimeout(() => void this.recount(), RECOUNT_MS);
  }

  private async recountDevices(devices: string[]): Promise<void> {
    if (this.byEntity.size === 0 || devices.length === 0) return;
    try {
      const rows = rowsOf<{ entity: string }>(
        await this.db.execute(sql`select distinct entity from devices
          where name in (select jsonb_array_elements_text(${JSON.stringify([...new Set(devices)])}::jsonb))`),
      );
      this.recountSoon(rows.map((r) => r.entity));
    } catch (err) {
      this.onError(err);
    }
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    clearInterval(this.keepalive);
    if (this.timer) clearTimeout(this.timer);
    for (const set of [...this.byEntity.values()]) for (const res of [...set]) res.end();
  }

  private async recount(): Promise<void> {
    this.timer = null;
    const entities = [...this.due];
    this.due.clear();
    for (const entity of entities) {
      const set = this.byEntity.get(entity);
      if (!set) continue;
      try {
        this.write([...set], await countAlerts(this.db, entity));
      } catch (err) {
        this.onError(err);
      }
    }
  }

  private write(streams: ServerResponse[], counts: object): void {
    const frame = `id: ${++this.seq}\nevent: count\ndata: ${JSON.stringify(counts)}\n\n`;
    for (const res of streams) if (!res.writableEnded) res.write(frame);
  }
}
