import type { Db } from '../../db/client.ts';
import { FlushLoop } from '../../lib/batching/flush-loop.ts';
import type { Bus } from '../../lib/bus.ts';
import { evaluateDevices } from './evaluate-devices.ts';
import { sweepAlerts } from './sweep-alerts.ts';

interface Options {
  /** The clock every evaluation reads; tests inject theirs. */
  now?: () => Date;
  /** How often the time-based sweep runs (0: never by itself; tests call `sweep()`). */
  sweepMs: number;
  onError(err: unknown): void;
}

/**
 * The long-lived alert worker of one instance: devices a telemetry flush changed are evaluated in
 * batches (the devices that changed, never the fleet), and a periodic sweep (one instance at a
 * time) raises what a start delay held, clears what a clear delay held and alerts on silent
 * devices. Every change is told on the bus (`alerts.changed`) so each instance's header streams
 * update.
 */
export class AlertEvaluator {
  private readonly dirty = new Set<string>();
  private readonly loop: FlushLoop<string[]>;
  private readonly timer: NodeJS.Timeout | null;
  readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly opts: Options,
  ) {
    this.now = opts.now ?? (() => new Date());
    this.loop = new FlushLoop({
      take: 'when-flush-starts',
      intervalMs: 100,
      maxBatch: 2_000,
      collect: () => {
        if (this.dirty.size === 0) return undefined;
        const names = [...this.dirty];
        this.dirty.clear();
        return names;
      },
      write: async (names) => this.told(await evaluateDevices(this.db, names, this.now())),
      onError: opts.onError,
    });
    this.timer = opts.sweepMs > 0 ? setInterval(() => void this.sweep().catch(opts.onError), opts.sweepMs) : null;
    this.timer?.unref();
  }

  /** Devices whose rows changed: evaluated within the loop's interval. */
  changed(names: Iterable<string>): void {
    for (const name of names) this.dirty.add(name);
    this.loop.added(this.dirty.size);
  }

  /** Evaluates what is queued now; resolves when it is written. */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** One sweep at `now` (the worker's clock unless given); answers the entities that changed. */
  async sweep(now = this.now()): Promise<string[]> {
    const entities = await sweepAlerts(this.db, now);
    await this.told(entities);
    return entities;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.loop.flush();
  }

  private async told(entities: string[]): Promise<void> {
    if (entities.length > 0) await this.bus.publish('alerts.changed', { entities });
  }
}
