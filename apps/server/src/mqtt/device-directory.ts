import { timingSafeEqual } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import type { Bus, DevicesChanged } from '../lib/bus.ts';
import { hashToken } from '../lib/tokens.ts';

export interface DeviceIdentity {
  name: string;
  entity: string;
  secretHash: string;
}

const KNOWN_TTL_MS = 10 * 60_000;
const UNKNOWN_TTL_MS = 5_000;
const MAX_ENTRIES = 200_000;
/**
 * How long a first sign-in waits for others to share its database read. A ramp of 500 connects/s
 * made one read per device with a same-tick batch; 10 ms cut it tenfold (bench/mqtt.mjs).
 */
const BATCH_WINDOW_MS = 10;

interface Entry {
  identity: DeviceIdentity | null;
  expires: number;
}

/**
 * Who a device is, for the broker: its entity and secret hash, cached so that a reconnect storm of
 * thousands of devices costs a few batched reads instead of one query (and one hash) each. The
 * cache forgets a device on `devices.changed` from any instance; unknown names are remembered
 * briefly so a stranger hammering the port cannot hammer the database.
 */
type Waiters = Array<(identity: DeviceIdentity | null) => void>;

export class DeviceDirectory {
  private readonly entries = new Map<string, Entry>();
  /** Names asked for in this batch window, not yet read. */
  private pending: Map<string, Waiters> | null = null;
  /**
   * Names whose read is under way. A device's next message joins its read instead of starting
   * another: if it started a second read, a third message could find the first read's answer in
   * the cache and overtake it, and the device's reports would apply out of order.
   */
  private readonly loading = new Map<string, Waiters>();

  constructor(
    private readonly db: Db,
    bus: Bus,
  ) {
    bus.subscribe('devices.changed', (change) => this.forget(change));
  }

  /** The device when the password is its secret, else null. */
  async verify(name: string, password: Buffer | string | undefined): Promise<DeviceIdentity | null> {
    if (password === undefined || password.length === 0 || password.length > 256) return null;
    const identity = await this.lookup(name);
    if (!identity) return null;
    const given = Buffer.from(hashToken(password.toString()), 'utf8');
    const stored = Buffer.from(identity.secretHash, 'utf8');
    return given.length === stored.length && timingSafeEqual(given, stored) ? identity : null;
  }

  /** The cached identity, without reading the database (undefined when not cached). */
  peek(name: string): DeviceIdentity | null | undefined {
    const entry = this.entries.get(name);
    return entry && entry.expires > Date.now() ? entry.identity : undefined;
  }

  /** The device's identity, read in a batch with every other name asked for in the same tick. */
  lookup(name: string): Promise<DeviceIdentity | null> {
    const cached = this.peek(name);
    if (cached !== undefined) return Promise.resolve(cached);
    return new Promise((resolve) => {
      const reading = this.loading.get(name);
      if (reading) return void reading.push(resolve);
      if (!this.pending) {
        this.pending = new Map();
        setTimeout(() => void this.load(), BATCH_WINDOW_MS);
      }
      const waiting = this.pending.get(name);
      if (waiting) waiting.push(resolve);
      else this.pending.set(name, [resolve]);
    });
  }

  forget(change: DevicesChanged): void {
    // A read under way may answer from before the change: whoever asks next reads again.
    if ('all' in change) {
      this.entries.clear();
      this.loading.clear();
    } else if ('names' in change) {
      for (const name of change.names) {
        this.entries.delete(name);
        this.loading.delete(name);
      }
    } else {
      for (const [name, entry] of this.entries) if (entry.identity?.entity === change.entity) this.entries.delete(name);
      this.loading.clear();
    }
  }

  private async load(): Promise<void> {
    const batch = this.pending!;
    this.pending = null;
    for (const [name, waiters] of batch) this.loading.set(name, waiters);
    const names = [...batch.keys()];
    // Null when the database is unreachable: these connections are refused now, nothing is
    // cached, and the next attempt asks again.
    let found: Map<string, DeviceIdentity> | null = null;
    try {
      const rows = await this.db
        .select({ name: devices.name, entity: devices.entity, secretHash: devices.mqtt_secret_hash })
        .from(devices)
        .where(inArray(devices.name, names));
      found = new Map(rows.map((row) => [row.name, row]));
    } catch {
      // Refused below.
    }
    if (found && this.entries.size + names.length > MAX_ENTRIES) this.entries.clear();
    const now = Date.now();
    for (const [name, waiters] of batch) {
      const identity = found?.get(name) ?? null;
      // Forgotten meanwhile (the device changed): answer this read's waiters, cache nothing.
      if (this.loading.get(name) === waiters) {
        this.loading.delete(name);
        if (found) this.entries.set(name, { identity, expires: now + (identity ? KNOWN_TTL_MS : UNKNOWN_TTL_MS) });
      }
      for (const resolve of waiters) resolve(identity);
    }
  }
}
