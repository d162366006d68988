import type { StateReport } from '@fleet/shared/protocol';
import { type PowerDraw, nextBattery, reportedBattery } from './battery.ts';
import { type Random, between, endsWithin, weighted } from './random.ts';

/**
 * What the unit is doing. All but `charging` are reported as they are, in fleet §4's vocabulary:
 * WAITING in its dispenser, ALLOCATED to a visitor, BOOTING after a reboot, ERROR (a reboot
 * clears it), DEFECT (an error that stuck), UNAVAILABLE with an empty battery. `charging` (in its
 * dock) reports WAITING with `is_charging` true: the spec has no charging state.
 */
export const DEVICE_STATES = ['WAITING', 'ALLOCATED', 'charging', 'ERROR', 'DEFECT', 'BOOTING', 'UNAVAILABLE'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** What each state draws from the battery. */
const DRAW: Readonly<Record<DeviceState, PowerDraw>> = {
  WAITING: 'idle',
  ALLOCATED: 'dispensing',
  charging: 'charging',
  ERROR: 'error',
  DEFECT: 'error',
  BOOTING: 'idle',
  UNAVAILABLE: 'asleep',
};

/** A device's own view of itself. The battery keeps its fraction; reports round it. */
export interface DeviceStatus {
  state: DeviceState;
  fwVersion: string;
  battery: number;
}

const MINUTE_MS = 60_000;

/** Mean simulated time in each state before something else happens. */
const MEAN_DWELL_MS: Readonly<Record<DeviceState, number>> = {
  WAITING: 8 * MINUTE_MS,
  ALLOCATED: 2 * MINUTE_MS,
  charging: 45 * MINUTE_MS,
  ERROR: 4 * MINUTE_MS,
  DEFECT: 60 * MINUTE_MS,
  BOOTING: MINUTE_MS / 2,
  UNAVAILABLE: 20 * MINUTE_MS,
};

/** Mean simulated time a waiting device stays awake before it sleeps, and how long a sleep lasts. */
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
    this.status.battery = nextBattery(this.status.battery, DRAW[this.status.state], elapsedMs);
    this.status.state = this.nextState(elapsedMs);
  }

  /**
   * Allocated through the kiosk manager: the visitor holds the unit, so it stays ALLOCATED (while
   * it has battery) until it is returned.
   */
  private heldByVisitor = false;

  /** The kiosk manager allocated the unit to a visitor. */
  allocate(): void {
    this.heldByVisitor = true;
    if (this.status.state !== 'UNAVAILABLE') this.status.state = 'ALLOCATED';
  }

  /** The unit is back in a dispenser, waiting. */
  giveBack(): void {
    this.heldByVisitor = false;
    if (this.status.state !== 'UNAVAILABLE') this.status.state = 'WAITING';
  }

  private nextState(elapsedMs: number): DeviceState {
    const { state, battery } = this.status;
    if (this.heldByVisitor) return battery <= 0 ? 'UNAVAILABLE' : 'ALLOCATED';
    // Staff take a full unit off its dock; an empty one is unavailable until it is docked.
    if (state === 'charging' && battery >= 100) return 'WAITING';
    if (battery <= 0 && state !== 'charging') return 'UNAVAILABLE';
    if (!endsWithin(this.rng, elapsedMs, MEAN_DWELL_MS[state])) return state;
    if (state === 'WAITING') {
      return weighted(this.rng, [
        ['ALLOCATED', battery > 5 ? 6 : 0],
        // A low unit is likely to be docked.
        ['charging', battery < 30 ? 8 : 1],
        ['ERROR', 0.5],
      ]);
    }
    if (state === 'ALLOCATED') {
      return weighted(this.rng, [
        ['WAITING', 19],
        ['ERROR', 1],
      ]);
    }
    if (state === 'ERROR')
      return weighted(this.rng, [
        ['WAITING', 9],
        ['DEFECT', 1],
      ]);
    // A defect stays until someone reboots the unit; an empty one waits for its dock.
    if (state === 'DEFECT') return 'DEFECT';
    if (state === 'UNAVAILABLE') return 'charging';
    return 'WAITING';
  }

  /** Whether a waiting device goes to sleep within `elapsedMs`; docked or busy ones stay awake. */
  wantsToSleep(elapsedMs: number): boolean {
    return this.status.state === 'WAITING' && endsWithin(this.rng, elapsedMs, MEAN_AWAKE_MS);
  }

  /** How long the next sleep lasts, in simulated milliseconds. */
  sleepLength(): number {
    return between(this.rng, ...SLEEP_MS);
  }

  /** Accounts for `elapsedMs` asleep: the radio is off, so the battery barely moves. */
  slept(elapsedMs: number): void {
    this.status.battery = nextBattery(this.status.battery, 'asleep', elapsedMs);
  }

  /** True while a firmware update runs: the device reports state DFU (blue in the console). */
  updating = false;
  /** True while a provisioning session runs: the device reports state PROVISIONING. */
  provisioning = false;

  /** A reboot boots (clearing an error or a defect, as on the hardware); an empty unit stays unavailable. */
  rebooted(): void {
    if (this.status.state !== 'UNAVAILABLE' && this.status.state !== 'charging') this.status.state = 'BOOTING';
  }

  /** The state as reported (fleet §4): DFU while a firmware update runs; a docked unit is WAITING and says it charges. */
  get reportedState(): string {
    if (this.updating) return 'DFU';
    if (this.provisioning) return 'PROVISIONING';
    return this.status.state === 'charging' ? 'WAITING' : this.status.state;
  }

  /** The full state report a device sends on connect and periodically. */
  report(now: number): StateReport {
    return {
      state: this.reportedState,
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
    if (fields.includes('state')) data.state = this.reportedState;
    if (fields.includes('fw_version')) data.fw_version = this.status.fwVersion;
    if (fields.includes('battery')) {
      data.battery = reportedBattery(this.status.battery);
      data.is_charging = this.isCharging;
    }
    return data;
  }
}
