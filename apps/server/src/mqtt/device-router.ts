import {
  DfuEventSchema,
  MAX_DEVICE_PAYLOAD_BYTES,
  ReplyMessageSchema,
  StateReportSchema,
  parseDeviceTopic,
  type DfuEvent,
  type DevicePublishKind,
  type ReplyMessage,
  type StateReport,
} from '@fleet/shared/protocol';
import { ProvisionDeviceEventSchema, type ProvisionDeviceEvent } from '@fleet/shared/provision';
import { findUnstorable } from '../lib/unstorable.ts';
import type { DeviceBudget } from './device-budget.ts';
import type { DeviceDirectory, DeviceIdentity } from './device-directory.ts';
import type { DeviceTopic, LinkHandlers, LinkStats } from './device-link.ts';

/**
 * What a feature registers for the device messages it owns. Each route is given a message already
 * checked against its schema, except `beacon`, whose handler checks the body itself and answers
 * false when it is not a sighting.
 */
export interface DeviceRoutes {
  /** `…/state`: a state report (telemetry). */
  state(device: DeviceIdentity, report: StateReport): void;
  /** Any other message of a known device, even one then dropped: it shows the device is alive. */
  alive(device: DeviceIdentity): void;
  /** The embedded broker's first-hand connects and disconnects. */
  presence(device: string, online: boolean): void;
  /** `…/reply`: resolves false when no command of the device has that id. */
  reply(device: DeviceIdentity, reply: ReplyMessage): Promise<boolean>;
  /** `…/events` with a DFU progress event. */
  dfu(device: DeviceIdentity, event: DfuEvent): void;
  /** `…/events` with any other event: a provisioning report. */
  provision(device: DeviceIdentity, event: ProvisionDeviceEvent): void;
  /** `…/beacon`: false when the body is not a sighting. */
  beacon(device: DeviceIdentity, body: unknown): boolean;
}
export type DeviceRouteKind = keyof DeviceRoutes;

interface Options {
  directory: DeviceDirectory;
  stats: LinkStats;
  /**
   * Checked on the topic alone, before the payload is read; null when the broker checks it itself
   * (the embedded one, in authorizePublish, before it routes the packet).
   */
  budget: DeviceBudget | null;
  onError(err: unknown, what: string): void;
}

export interface DeviceRouter {
  /** What the broker calls with every message a device publishes. */
  readonly handlers: LinkHandlers;
  /** Registers the handler of one kind, once, while the server starts; throws once sealed. */
  register<K extends DeviceRouteKind>(kind: K, handler: DeviceRoutes[K]): void;
  /** No more registrations: called just before the broker takes messages. */
  seal(): void;
}

/**
 * The one place that says where a device's message goes. It is checked before anything is
 * believed (the topic, the device's budget for it, the size, the JSON, the device and its entity,
 * storable text), counted, parsed by kind and handed to the handler its feature registered. A
 * kind nobody registered is dropped and counted; nothing a device sends can throw past here.
 */
export function createDeviceRouter(o: Options): DeviceRouter {
  const routes: Partial<DeviceRoutes> = {};
  let sealed = false;
  const alive = (device: DeviceIdentity) => routes.alive?.(device);

  const events = (device: DeviceIdentity, body: unknown) => {
    alive(device);
    // Provisioning reports (type 'provision') are the busy kind: routed before the DFU schema is
    // tried, whose refusal costs more than the check.
    const provisionType = (body as { type?: unknown } | null)?.type === 'provision';
    const dfu = provisionType ? null : DfuEventSchema.safeParse(body);
    if (dfu?.success) {
      if (!routes.dfu) return o.stats.drop('unknown_command');
      return routes.dfu(device, dfu.data);
    }
    if (!routes.provision) return o.stats.drop('unsupported');
    const report = ProvisionDeviceEventSchema.safeParse(body);
    if (!report.success) return o.stats.drop('bad_message');
    routes.provision(device, report.data);
  };

  const dispatch = (device: DeviceIdentity, kind: DevicePublishKind, body: unknown) => {
    switch (kind) {
      case 'state': {
        const report = StateReportSchema.safeParse(body);
        if (!report.success) return o.stats.drop('bad_message');
        if (!routes.state) return o.stats.drop('unsupported');
        return routes.state(device, report.data);
      }
      case 'reply': {
        const reply = ReplyMessageSchema.safeParse(body);
        if (!reply.success) return o.stats.drop('bad_message');
        alive(device);
        if (!routes.reply) return o.stats.drop('unknown_command');
        routes.reply(device, reply.data).then(
          (known) => known || o.stats.drop('unknown_command'),
          (err) => o.onError(err, 'settling a command reply'),
        );
        return;
      }
      case 'events':
        return events(device, body);
      case 'beacon': {
        alive(device);
        if (!routes.beacon) return o.stats.drop('unsupported');
        if (!routes.beacon(device, body)) o.stats.drop('bad_message');
        return;
      }
      default:
        alive(device);
        return o.stats.drop('unsupported');
    }
  };

  const read = (where: DeviceTopic, payload: Buffer) => {
    if (payload.length > MAX_DEVICE_PAYLOAD_BYTES) return o.stats.drop('too_large');
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return o.stats.drop('bad_json');
    }
    const accept = (device: DeviceIdentity | null) => {
      if (!device) return o.stats.drop('unknown_device');
      // The broker's ACL already keeps devices to their own topics; this holds even if it is misconfigured.
      if (device.entity !== where.entity) return o.stats.drop('wrong_entity');
      if (findUnstorable(body)) {
        // Nothing of it is believed, but the device did speak.
        alive(device);
        return o.stats.drop('bad_text');
      }
      dispatch(device, where.kind, body);
    };
    const cached = o.directory.peek(where.device);
    if (cached !== undefined) accept(cached);
    else o.directory.lookup(where.device).then(accept, (err) => o.onError(err, 'looking up a device'));
  };

  return {
    handlers: {
      message(topic, payload) {
        o.stats.received++;
        const where = parseDeviceTopic(topic);
        if (!where) return o.stats.drop('bad_topic');
        o.stats.byKind[where.kind]++;
        // Before the payload is even looked at: a flood costs a map look-up a message.
        if (o.budget && !o.budget.admit(where.device, where.kind)) return o.stats.drop('over_budget');
        read(where, payload);
      },
      parsed(where, payload) {
        o.stats.received++;
        o.stats.byKind[where.kind]++;
        read(where, payload);
      },
      presence(device, online) {
        routes.presence?.(device, online);
      },
    },
    register(kind, handler) {
      if (sealed) throw new Error(`device messages of kind ${kind} registered after the broker started`);
      if (routes[kind]) throw new Error(`device messages of kind ${kind} registered twice`);
      routes[kind] = handler;
    },
    seal() {
      sealed = true;
    },
  };
}
