import mqtt, { type MqttClient } from 'mqtt';
import { ReminderMessageSchema, type ReminderMessage } from '@fleet/shared/beacon-protocol';
import { topics } from '@fleet/shared/protocol';
import type { DeviceCredentials } from './fleet.ts';
import { BeaconWard, type WardRoom } from './beacon-ward.ts';

export interface GatewayFleetOptions {
  /** Gateways (devices of the entity) and the room each stands in. */
  gateways: ReadonlyArray<DeviceCredentials & { room: string }>;
  /** Beacon MACs worn by patients. */
  beacons: readonly string[];
  url: string;
  /** Real milliseconds between scans; default 1000. */
  scanMs?: number;
  seed?: number;
  moveChance?: number;
  onReminder?(gateway: string, reminder: ReminderMessage): void;
  onProblem?(gateway: string, err: Error): void;
}

export interface GatewayFleet {
  stats(): { gateways: number; connected: number; sightings: number; reminders: number };
  stop(): Promise<void>;
}

/**
 * Beacon gateways over MQTT, like the hardware: mains powered (never asleep), subscribed to their
 * command topics, publishing each scan's sightings `{beacon_mac, rssi, ts}` on their `beacon`
 * topic and taking medication reminders on `cmd` (docs/device-protocol.md, "Beacon gateways").
 */
export async function startGateways(o: GatewayFleetOptions): Promise<GatewayFleet> {
  const rooms: WardRoom[] = o.gateways.map((g) => ({ room: g.room, gateway: g.name }));
  const ward = new BeaconWard(rooms, o.beacons, o.seed ?? 1, o.moveChance);
  const totals = { sightings: 0, reminders: 0 };
  const clients = new Map<string, MqttClient>();
  for (const g of o.gateways) {
    const client = mqtt.connect(o.url, {
      protocolVersion: 4,
      clientId: g.name,
      username: g.name,
      password: g.password,
      reconnectPeriod: 2_000,
      clean: true,
      will: { topic: topics.state(g.entity, g.name), payload: Buffer.from('{"online":false}'), qos: 1, retain: false },
    });
    client.on('connect', () => {
      void client
        .subscribeAsync([topics.deviceCommands(g.entity, g.name), topics.entityCommands(g.entity)], { qos: 1 })
        .then(() =>
          client.publishAsync(topics.state(g.entity, g.name), JSON.stringify({ online: true, is_charging: true }), {
            qos: 1,
          }),
        )
        .catch((err: Error) => o.onProblem?.(g.name, err));
    });
    client.on('error', (err) => o.onProblem?.(g.name, err));
    client.on('message', (_topic, payload) => {
      let body: unknown;
      try {
        body = JSON.parse(payload.toString());
      } catch {
        return;
      }
      const reminder = ReminderMessageSchema.safeParse(body);
      if (!reminder.success) return;
      totals.reminders++;
      o.onReminder?.(g.name, reminder.data);
    });
    clients.set(g.name, client);
  }
  const entityOf = new Map(o.gateways.map((g) => [g.name, g.entity]));
  const scan = setInterval(() => {
    for (const s of ward.tick()) {
      const client = clients.get(s.gateway);
      if (!client?.connected) continue;
      totals.sightings++;
      client.publish(
        topics.beacon(entityOf.get(s.gateway)!, s.gateway),
        JSON.stringify({ beacon_mac: s.beacon_mac, rssi: s.rssi, ts: Date.now() }),
        { qos: 0 },
      );
    }
  }, o.scanMs ?? 1_000);

  return {
    stats: () => ({
      gateways: clients.size,
      connected: [...clients.values()].filter((c) => c.connected).length,
      ...totals,
    }),
    async stop() {
      clearInterval(scan);
      await Promise.all(
        [...clients.entries()].map(async ([name, c]) => {
          if (c.connected)
            await c
              .publishAsync(topics.state(entityOf.get(name)!, name), '{"online":false}', { qos: 1 })
              .catch(() => undefined);
          await c.endAsync();
        }),
      );
    },
  };
}
