import {
  DfuEventSchema,
  MAX_DEVICE_PAYLOAD_BYTES,
  ReplyMessageSchema,
  StateReportSchema,
  parseDeviceTopic,
  type DevicePublishKind,
} from '@fleet/shared/protocol';
import { findUnstorable } from '../lib/unstorable.ts';
import type { CommandService } from '../domain/command/command-service.ts';
import type { TelemetryBatcher } from '../domain/telemetry/telemetry-batcher.ts';
import type { DeviceBudget } from './device-budget.ts';
import type { DeviceDirectory, DeviceIdentity } from './device-directory.ts';
import type { DeviceTopic, LinkHandlers, LinkStats } from './device-link.ts';

/** Set once the beacon side has started; sightings before that are dropped as unsupported. */
export interface BeaconRoute {
  handler?: (device: DeviceIdentity, body: unknown) => boolean;
}

interface Options {
  directory: DeviceDirectory;
  stats: LinkStats;
  /**
   * Checked on the topic alone, before the payload is read; null when the broker checks it itself
   * (the embedded one, in authorizePublish, before it routes the packet).
   */
  budget: DeviceBudget | null;
  telemetry: TelemetryBatcher;
  /** Undefined only while the server starts. */
  commands: () => CommandService | undefined;
  /** Where beacon sightings go (domain/beacon); false when the message is not a sighting. */
  beacons: BeaconRoute;
  /** Where provisioning reports go (domain/provision); false when the message is not one. */
  provisioning: BeaconRoute;
  onError(err: unknown, what: string): void;
}

/**
 * What devices publish, checked before anything is believed: the topic, the device's budget for
 * it, the size, the JSON, the device and its entity, then the message's shape. Anything wrong is dropped and counted; nothing a
 * device sends can throw past here.
 */
export function createIngest(o: Options): LinkHandlers {
  const handle = (device: DeviceIdentity, kind: DevicePublishKind, body: unknown) => {
    switch (kind) {
      case 'state': {
        const report = StateReportSchema.safeParse(body);
        if (!report.success) return o.stats.drop('bad_message');
        return o.telemetry.report(device.name, report.data);
      }
      case 'reply': {
        const reply = ReplyMessageSchema.safeParse(body);
        if (!reply.success) return o.stats.drop('bad_message');
        o.telemetry.report(device.name);
        const commands = o.commands();
        if (!commands) return o.stats.drop('unknown_command');
        commands.onReply(device.name, reply.data).then(
          (known) => known || o.stats.drop('unknown_command'),
          (err) => o.onError(err, 'settling a command reply'),
        );
        return;
      }
      case 'events': {
        o.telemetry.report(device.name);
        // Provisioning reports (type 'provision') are the busy kind: routed before the DFU schema
        // is tried, whose refusal costs more than the check.
        const provision = (body as { type?: unknown } | null)?.type === 'provision';
        const event = provision ? null : DfuEventSchema.safeParse(body);
        if (!event?.success) {
          const provisioning = o.provisioning.handler;
          if (!provisioning) return o.stats.drop('unsupported');
          if (!provisioning(device, body)) o.stats.drop('bad_message');
          return;
        }
        const commands = o.commands();
        if (!commands) return o.stats.drop('unknown_command');
        commands.onProgress(device.name, event.data);
        return;
      }
      case 'beacon': {
        o.telemetry.report(device.name);
        const route = o.beacons.handler;
        if (!route) return o.stats.drop('unsupported');
        if (!route(device, body)) o.stats.drop('bad_message');
        return;
      }
      default:
        // Progress events arrive with provisioning; they still show the device is alive.
        o.telemetry.report(device.name);
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
        o.telemetry.report(device.name);
        return o.stats.drop('bad_text');
      }
      handle(device, where.kind, body);
    };
    const cached = o.directory.peek(where.device);
    if (cached !== undefined) accept(cached);
    else o.directory.lookup(where.device).then(accept, (err) => o.onError(err, 'looking up a device'));
  };

  return {
    message(topic, payload) {
      o.stats.received++;
      const where = parseDeviceTopic(topic);
      if (!where) return o.stats.drop('bad_topic');
      // Before the payload is even looked at: a flood costs a map look-up a message.
      if (o.budget && !o.budget.admit(where.device, where.kind)) return o.stats.drop('over_budget');
      read(where, payload);
    },
    parsed(where, payload) {
      o.stats.received++;
      read(where, payload);
    },
    presence(device, online) {
      o.telemetry.presence(device, online);
    },
  };
}
