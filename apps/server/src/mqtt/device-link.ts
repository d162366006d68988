import { DEVICE_PUBLISH_KINDS, type DevicePublishKind, type parseDeviceTopic } from '@fleet/shared/protocol';
import type { DeviceLink } from '../domain/device-link.ts';

/** The port the domain publishes through (domain/device-link.ts), implemented by the brokers here. */
export type { DeviceLink } from '../domain/device-link.ts';

/** A broker's link: it publishes at once, and takes devices' messages once `listen()` resolves. */
export interface BrokerLink extends DeviceLink {
  listen(): Promise<void>;
  /** Devices connected to this instance's embedded broker; absent with an external broker. */
  connected?(): number;
}

/** Where a device published: `fleet/{entity}/{device}/{kind}`, parsed. */
export type DeviceTopic = NonNullable<ReturnType<typeof parseDeviceTopic>>;

export interface LinkHandlers {
  /** A message a device published on one of the server's subscriptions. */
  message(topic: string, payload: Buffer): void;
  /**
   * A message whose topic the broker has already parsed, checked against the publisher and
   * charged to its budget (the embedded broker, before it routes the packet).
   */
  parsed(where: DeviceTopic, payload: Buffer): void;
  /** The embedded broker knows connections first-hand; an external broker reports them through the protocol. */
  presence(device: string, online: boolean): void;
}

/** Why messages from devices were dropped, counted for `GET /readyz`. */
export const DROP_REASONS = [
  'bad_topic',
  'too_large',
  'bad_json',
  'bad_message',
  /** Text the database cannot store (U+0000) or JSON nested too deeply; the device still counts as alive. */
  'bad_text',
  'unknown_device',
  'wrong_entity',
  'unknown_command',
  'unsupported',
  'refused_connection',
  'refused_topic',
  /** A report the database refused even alone; the device's sign of life was still kept. */
  'write_failed',
  /** Over the device's message budget for the topic, or sent while the device is cut off. */
  'over_budget',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** Counters of the MQTT side; cheap enough to bump on every message. */
export class LinkStats {
  received = 0;
  /** Messages received by the kind their topic names (the router counts them once the topic parses). */
  readonly byKind: Record<DevicePublishKind, number> = Object.fromEntries(
    DEVICE_PUBLISH_KINDS.map((k) => [k, 0]),
  ) as Record<DevicePublishKind, number>;
  /** Times the embedded broker stopped reading a device over its budget (read-pause.ts). */
  paused = 0;
  readonly dropped: Record<DropReason, number> = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<
    DropReason,
    number
  >;

  drop(reason: DropReason): void {
    this.dropped[reason]++;
  }

  snapshot() {
    return { received: this.received, paused: this.paused, dropped: { ...this.dropped } };
  }
}
