import { type DeviceOptions, SimulatedDevice } from './device.ts';

/** One device's credentials, as `npm run demo` writes them and the create answer gives them. */
export interface DeviceCredentials {
  name: string;
  entity: string;
  password: string;
}

export interface FleetOptions extends Omit<DeviceOptions, 'id' | 'entity' | 'secret'> {
  devices: readonly DeviceCredentials[];
  /** First connections are spread over this many real milliseconds so a big fleet does not storm the broker. */
  rampMs?: number;
}

export interface FleetStats {
  devices: number;
  online: number;
  /** Asleep, rebooting or back from a dropped link. */
  away: number;
  sent: number;
  commands: number;
  answered: number;
}

export interface Fleet {
  devices: readonly SimulatedDevice[];
  /** Totals over the fleet, now. */
  stats(): FleetStats;
  /** Every device says it goes offline and disconnects. */
  stop(): Promise<void>;
}

/** Starts one simulated device per credential; they connect over the next `rampMs` and live until `stop()`. */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const { devices: credentials, rampMs = Math.min(5_000, credentials.length * 20), ...shared } = opts;
  const devices = credentials.map(
    (c) => new SimulatedDevice({ ...shared, id: c.name, entity: c.entity, secret: c.password }),
  );
  devices.forEach((d, i) => d.start((i * rampMs) / devices.length));
  return {
    devices,
    stats: () => fleetStats(devices),
    stop: async () => {
      await Promise.all(devices.map((d) => d.stop()));
    },
  };
}

function fleetStats(devices: readonly SimulatedDevice[]): FleetStats {
  const totals: FleetStats = { devices: devices.length, online: 0, away: 0, sent: 0, commands: 0, answered: 0 };
  for (const d of devices) {
    if (d.phase === 'online') totals.online++;
    if (d.phase === 'away') totals.away++;
    totals.sent += d.stats.sent;
    totals.commands += d.stats.commands;
    totals.answered += d.stats.answered;
  }
  return totals;
}
