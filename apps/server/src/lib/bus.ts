import { EventEmitter } from 'node:events';

/** Events between API instances: what one instance changes that every instance must know at once. */
export interface BusEvents {
  /** Session families ended (logout, reuse, password change, account or entity removed). */
  'families.revoked': { ids: string[] };
  /** Permanent tokens revoked, or their account changed or removed: forget cached answers. */
  'tokens.changed': { hashes: string[] };
  /** Entities deleted: live connections that follow them end (landlords' too). */
  'entities.removed': { names: string[] };
  /** Devices created, deleted or given new MQTT credentials: forget cached answers, drop old sessions. */
  'devices.changed': DevicesChanged;
  /** A command ended (reply, timeout): the instance whose HTTP call waits for it answers. */
  'commands.settled': CommandSettled;
  /** A beacon configuration of the entity was added, changed or removed: forget cached configurations. */
  'beacons.changed': { entity: string };
  /**
   * Provisioning events with their numbers, in order (one message for all a flush numbered):
   * event streams on every instance relay them.
   */
  'provision.events': { events: ProvisionBusEvent[] };
  /**
   * Provisioning events are stored up to these numbers. With several instances events go out
   * before their transaction commits; a stream that is behind one of these reads what it missed.
   */
  'provision.stored': { marks: StoredMark[] };
  /** A rollout of the entity changed (state, progress): its event streams on every instance tell their clients. */
  'rollouts.changed': { entity: string; id: string };
  /** Alerts of these entities were raised, acknowledged or cleared: header streams recount. */
  'alerts.changed': { entities: string[] };
}

/** A session's events are stored up to `seq`. */
export interface StoredMark {
  device: string;
  session_id: string;
  seq: number;
}

export interface ProvisionBusEvent {
  device: string;
  session_id: string;
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

/** Which devices changed: by name, every device of an entity, or every device. */
export type DevicesChanged = { names: string[] } | { entity: string } | { all: true };

export interface CommandSettled {
  id: string;
  device: string;
  state: 'succeeded' | 'failed' | 'timed_out';
  error: string | null;
  replied_at: string | null;
  latency_ms: number | null;
  /** What a refresh's reply said of the device (state, firmware, battery), for the caller waiting on it. */
  report?: RefreshReport;
}

/** A refresh reply's state, firmware version and battery, as the caller is answered them. */
export interface RefreshReport {
  state?: string | undefined;
  fw_version?: string | undefined;
  battery?: number | undefined;
  is_charging?: boolean | undefined;
}

export interface Bus {
  publish<K extends keyof BusEvents>(topic: K, payload: BusEvents[K]): Promise<void>;
  subscribe<K extends keyof BusEvents>(topic: K, handler: (payload: BusEvents[K]) => void): void;
  close(): Promise<void>;
}

/** One process: events go straight to the local handlers. */
export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  return {
    async publish(topic, payload) {
      emitter.emit(topic, payload);
    },
    subscribe(topic, handler) {
      emitter.on(topic, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL_PREFIX = 'fleet:';

/** Several instances: Redis pub/sub, with local handlers also called for this instance's own events. */
export async function createRedisBus(url: string, onError: (err: Error) => void): Promise<Bus> {
  // Loaded only here: a single instance (no REDIS_URL) never loads the client.
  const { Redis } = await import('ioredis');
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true });
  pub.on('error', onError);
  sub.on('error', onError);
  await Promise.all([pub.connect(), sub.connect()]);
  const local = new EventEmitter();
  sub.on('message', (channel: string, message: string) => {
    try {
      local.emit(channel.slice(CHANNEL_PREFIX.length), JSON.parse(message));
    } catch (err) {
      onError(err as Error);
    }
  });
  return {
    async publish(topic, payload) {
      await pub.publish(CHANNEL_PREFIX + topic, JSON.stringify(payload));
    },
    subscribe(topic, handler) {
      if (local.listenerCount(topic) === 0) void sub.subscribe(CHANNEL_PREFIX + topic);
      local.on(topic, handler);
    },
    async close() {
      local.removeAllListeners();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
