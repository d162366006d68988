import type { StateReport } from '@fleet/shared/protocol';
import { nextBattery, reportedBattery } from './battery.ts';
import { type Random, between, endsWithin, weighted } from './random.ts';

/** What a dispensing unit reports as its state; `charging` means it sits in its dock. */
export const DEVICE_STATES = ['idle', 'dispensing', 'charging', 'error'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** A device's own view of itself. The battery keeps its fraction; reports round it. */
export interface DeviceStatus {
  state: DeviceState;
  fwVersion: string;
  battery: number;
}

const MINUTE_MS = 60_000;

/** Mean simulated time in each state before something else happens. */
const MEAN_DWELL_MS: Readonly<Record<DeviceState, number>> = {
  idle: 8 * MINUTE_MS,
  dispensing: 2 * MINUTE_MS,
  charging: 45 * MINUTE_MS,
  error: 4 * MINUTE_MS,
};

/** Mean simulated time an idle device stays awake before it sleeps, and how long a sleep lasts. */
const MEAN_AWAKE_MS = 15 * MINUTE_MS;
const SLEEP_MS = [2 * MINUTE_MS, 10 * MINUTE_MS] as const;

/**
 * The device without its radio: battery, state changes, sleep decisions and the reports it would
 * send. Time is simulated milliseconds; all chance comes from the seeded `rng`.
 */
export class DeviceModel {
  constructor(
    readonly status: DeviceStatus,
    private readonly rng: Random,
  ) {}

  get isCharging(): boolean {
    return this.status.state === 'charging';
  }

  /** Lets `elapsedMs` pass awake: the battery follows the state, and the state may change. */
  advance(elapsedMs: number): void {
    this.status.battery = nextBattery(this.status.battery, this.status.state, elapsedMs);
    this.status.state = this.nextState(elapsedMs);
  }

  private nextState(elapsedMs: number): DeviceState {
    const { state, battery } = this.status;
    // Staff take a full unit off its dock; an empty one cannot drive its motor.
    if (state === 'charging' && battery >= 100) return 'idle';
    if (state === 'dispensing' && battery <= 0) return 'idle';
    if (!endsWithin(this.rng, elapsedMs, MEAN_DWELL_MS[state])) return state;
    if (state === 'idle') {
      return weighted(this.rng, [
        ['dispensing', battery > 5 ? 6 : 0],
        // A low unit is likely to be docked.
        ['charging', battery < 30 ? 8 : 1],
        ['error', 0.5],
      ]);
    }
    if (state === 'dispensing') {
      return weighted(this.rng, [
        ['idle', 19],
        ['error', 1],
      ]);
    }
    return 'idle';
  }

  /** Whether an idle device goes to sleep within `elapsedMs`; docked or busy ones stay awake. */
  wantsToSleep(elapsedMs: number): boolean {
    return this.status.state === 'idle' && endsWithin(this.rng, elapsedMs, MEAN_AWAKE_MS);
  }

  /** How long the next sleep lasts, in simulated milliseconds. */
  sleepLength(): number {
    return between(this.rng, ...SLEEP_MS);
  }

  /** Accounts for `elapsedMs` asleep: the radio is off, so the battery barely moves. */
  slept(elapsedMs: number): void {
    this.status.battery = nextBattery(this.status.battery, 'asleep', elapsedMs);
  }

  /** A reboot clears an error, as it does on the hardware. */
  rebooted(): void {
    if (this.status.state === 'error') this.status.state = 'idle';
  }

  /** The full state report a device sends on connect and periodically. */
  report(now: number): StateReport {
    return {
      state: this.status.state,
      fw_version: this.status.fwVersion,
      battery: reportedBattery(this.status.battery),
      is_charging: this.isCharging,
      online: true,
      ts: now,
    };
  }

  /** The `data` of a refresh reply: the requested fields; the battery comes with its charging flag. */
  refreshData(fields: readonly ('state' | 'fw_version' | 'battery')[]): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    if (fields.includes('state')) data.state = this.status.state;
    if (fields.includes('fw_version')) data.fw_version = this.status.fwVersion;
    if (fields.includes('battery')) {
      data.battery = reportedBattery(this.status.battery);
      data.is_charging = this.isCharging;
    }
    return data;
  }
}
