import { type Random, seededRandom } from './random.ts';

/**
 * A ward for the beacon demo: gateways fixed in rooms along a corridor and patients wearing BLE
 * beacons who move between rooms now and then. RSSI follows the log-distance path-loss model
 * (1 m reference −59 dBm, exponent 2.2 indoors) with Gaussian shadowing, so the gateway of the
 * patient's room hears them around −50…−70 dBm and the neighbouring rooms' near −80 or not at all.
 */
export interface WardRoom {
  room: string;
  gateway: string;
}

export interface WardPatient {
  mac: string;
  room: number;
  /** Distance from the room's gateway, metres. */
  distance: number;
}

export interface Sighting {
  gateway: string;
  beacon_mac: string;
  rssi: number;
}

const TX_POWER_AT_1M = -59;
const PATH_LOSS_EXPONENT = 2.2;
const SHADOWING_SD = 4;
/** Rooms are this far apart along the corridor, metres. */
const ROOM_SPACING_M = 9;
/** Below this the gateway's radio does not report the advertisement at all. */
const SENSITIVITY_DBM = -95;

export const rssiAt = (distanceM: number, noise = 0) =>
  Math.round(TX_POWER_AT_1M - 10 * PATH_LOSS_EXPONENT * Math.log10(Math.max(distanceM, 0.5)) + noise);

/** Standard normal from two uniforms (Box–Muller). */
function gaussian(rng: Random): number {
  const u = Math.max(rng(), 1e-9);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

export class BeaconWard {
  readonly patients: WardPatient[];
  private readonly rng: Random;

  constructor(
    readonly rooms: readonly WardRoom[],
    macs: readonly string[],
    seed = 1,
    /** Chance per tick that a patient walks to another room. */
    private readonly moveChance = 0.03,
  ) {
    this.rng = seededRandom(seed);
    this.patients = macs.map((mac, i) => ({ mac, room: i % rooms.length, distance: 1 + this.rng() * 4 }));
  }

  /** One scan interval: patients may move, then every gateway reports what it hears. */
  tick(): Sighting[] {
    for (const p of this.patients) {
      if (this.rng() < this.moveChance) {
        p.room = Math.floor(this.rng() * this.rooms.length);
        p.distance = 1 + this.rng() * 4;
      } else {
        // Shuffling about the room.
        p.distance = Math.min(6, Math.max(0.7, p.distance + (this.rng() - 0.5)));
      }
    }
    const out: Sighting[] = [];
    this.rooms.forEach((r, gi) => {
      for (const p of this.patients) {
        const along = Math.abs(gi - p.room) * ROOM_SPACING_M;
        const distance = Math.hypot(along, p.distance);
        // Walls between rooms cost about 6 dB each.
        const walls = Math.abs(gi - p.room) * 6;
        const rssi = rssiAt(distance, gaussian(this.rng) * SHADOWING_SD) - walls;
        if (rssi >= SENSITIVITY_DBM) out.push({ gateway: r.gateway, beacon_mac: p.mac, rssi });
      }
    });
    return out;
  }
}
