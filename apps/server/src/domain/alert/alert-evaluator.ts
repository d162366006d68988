import type { Db } from '../../db/client.ts';
import { FlushLoop } from '../../lib/batching/flush-loop.ts';
import type { Bus } from '../../lib/bus.ts';
import { every, type Periodic } from '../../lib/periodic.ts';
import { evaluateDevices } from './evaluate-devices.ts';
import { recordDeviceOutcomes, type DeviceOutcome } from './record-outcomes.ts';
import { sweepAlerts } from './sweep-alerts.ts';

interface Batch {
  names: string[];
  stopped: string[];
  outcomes: DeviceOutcome[];
}

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
  /** Devices a flush saw stop charging (charging_stopped begins only for them). */
  private readonly stopped = new Set<string>();
  private outcomeQueue: DeviceOutcome[] = [];
  /** Its flush loop (the metrics read its depth and time its writes). */
  readonly loop: FlushLoop<Batch>;
  private readonly sweeper: Periodic | null;
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
        if (this.dirty.size === 0 && this.outcomeQueue.length === 0) return undefined;
        const batch = { names: [...this.dirty], stopped: [...this.stopped], outcomes: this.outcomeQueue };
        this.dirty.clear();
        this.stopped.clear();
        this.outcomeQueue = [];
        return batch;
      },
      write: async ({ names, stopped, outcomes }) => {
        const now = this.now();
        const a = await evaluateDevices(this.db, names, now, stopped);
        const b = await recordDeviceOutcomes(this.db, outcomes, now);
        await this.told([...new Set([...a, ...b])]);
      },
      onError: opts.onError,
    });
    this.sweeper = opts.sweepMs > 0 ? every(opts.sweepMs, () => this.sweep(), opts.onError) : null;
  }

  /** Devices whose rows changed (`stopped`: of them, those that stopped charging): evaluated within the loop's interval. */
  changed(names: Iterable<string>, stopped: Iterable<string> = []): void {
    for (const name of names) this.dirty.add(name);
    for (const name of stopped) this.stopped.add(name);
    this.loop.added(this.dirty.size + this.outcomeQueue.length);
  }

  /** Failures and successes on devices (commands, firmware updates): recorded within the loop's interval. */
  outcomes(list: DeviceOutcome[]): void {
    if (list.length === 0) return;
    this.outcomeQueue.push(...list);
    this.loop.added(this.dirty.size + this.outcomeQueue.length);
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
    await this.sweeper?.stop();
    await this.loop.flush();
  }

  private async told(entities: string[]): Promise<void> {
    if (entities.length > 0) await this.bus.publish('alerts.changed', { entities });
  }
}
