import net from 'node:net';
import { Aedes, type Client, type PublishPacket } from 'aedes';
import { SERVER_SUBSCRIPTIONS, parseDeviceTopic, topics } from '@fleet/shared/protocol';
import type { Bus, DevicesChanged } from '../lib/bus.ts';
import type { AuthThrottle } from './auth-throttle.ts';
import type { ConnectionGate } from './connection-gate.ts';
import type { DeviceBudget } from './device-budget.ts';
import type { DeviceDirectory, DeviceIdentity } from './device-directory.ts';
import type { BrokerLink, LinkHandlers, LinkStats } from './device-link.ts';
import { ReadPause, type PausableClient } from './read-pause.ts';
import { readInSlices, type SliceableClient } from './read-slices.ts';

interface Options {
  port: number;
  host: string;
  /** A socket must send its CONNECT within this long. */
  connectTimeoutMs: number;
  directory: DeviceDirectory;
  bus: Bus;
  stats: LinkStats;
  handlers: LinkHandlers;
  gate: ConnectionGate;
  throttle: AuthThrottle;
  budget: DeviceBudget;
}

type DeviceClient = Client & { fleet?: DeviceIdentity };

/**
 * Aedes that does not route what the server already took from its device in authorizePublish:
 * nobody but the server subscribes to what devices publish, so a device's message is read where
 * it is authorised, without the broker's packet copy, topic matching and delivery.
 */
class FleetBroker extends Aedes {
  readonly taken = new WeakSet<object>();

  override publish(packet: PublishPacket, callback: (error?: Error) => void): void;
  override publish(packet: PublishPacket, ...rest: unknown[]): void {
    if (!this.taken.delete(packet)) return (super.publish as (...args: unknown[]) => void).call(this, packet, ...rest);
    const done = rest.at(-1);
    if (typeof done === 'function') done();
  }
}

/** CONNACK return codes of MQTT 3.1.1. */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;

const refusal = (returnCode: 2 | 3 | 4, message: string) => Object.assign(new Error(message), { returnCode });

/**
 * Aedes inside the server process (the embedded default). Devices sign in with their id and
 * secret, with client id = device id so one device cannot push another off the broker; each may
 * publish only under its own prefix (a device that tries otherwise is disconnected, as MQTT 3.1.1
 * has no way to refuse one message) and subscribe only to its own and its entity's command topics.
 * Strangers are kept small (connection-gate.ts: unauthenticated sockets bounded in number, time and
 * packet size), guessing secrets is throttled (auth-throttle.ts), a device over its budget is not
 * read for a moment (read-pause.ts), and a device its budget cut off is disconnected and refused
 * until its cool-down ends (device-budget.ts). Devices can connect once `listen()` resolves.
 */
export async function createEmbeddedBroker(opts: Options): Promise<BrokerLink> {
  const { directory, stats, handlers, gate, throttle, budget } = opts;
  const broker = new FleetBroker({
    drainTimeout: 30_000,
    queueLimit: 100,
    maxTopicLevels: 8,
    connectTimeout: opts.connectTimeoutMs,
  });
  await broker.listen();
  const pauses = new ReadPause();
  // Connected clients by id; Aedes keeps the map but does not type it.
  const clients = () => (broker as unknown as { clients: Record<string, DeviceClient> }).clients;

  broker.authenticate = (client: DeviceClient, username, password, done) => {
    if (!username || client.id !== username) {
      stats.drop('refused_connection');
      return done(refusal(IDENTIFIER_REJECTED, 'Client id must be the device id'), false);
    }
    // Told only "try later": nothing about its budget.
    if (budget.isCutOff(username)) {
      stats.drop('refused_connection');
      return done(refusal(SERVER_UNAVAILABLE, 'Server unavailable'), false);
    }
    const socket = client.conn as net.Socket;
    const address = socket.remoteAddress ?? '';
    // While throttled even the right secret is answered as a wrong one, without being checked.
    if (throttle.refused(username, address)) {
      stats.drop('refused_connection');
      return done(refusal(BAD_USERNAME_OR_PASSWORD, 'Unknown device or wrong secret'), false);
    }
    directory.verify(username, password).then(
      (identity) => {
        if (!identity) {
          throttle.failed(username, address);
          stats.drop('refused_connection');
          done(refusal(BAD_USERNAME_OR_PASSWORD, 'Unknown device or wrong secret'), false);
          return;
        }
        throttle.succeeded(username, address);
        gate.signedIn(socket);
        client.fleet = identity;
        // However fast it sends, a device is read a slice an event-loop turn (read-slices.ts).
        readInSlices(client as unknown as SliceableClient);
        done(null, true);
      },
      (err: Error) => done(Object.assign(err, { returnCode: 3 as const }), false), // 3: server unavailable
    );
  };

  broker.authorizePublish = (client: DeviceClient | null, packet, done) => {
    const device = client?.fleet;
    // Without a client it is a will of a session that ended; the topic was checked when it was set.
    if (!client) return done(null);
    const where = parseDeviceTopic(packet.topic);
    if (!device || !where || where.device !== device.name || where.entity !== device.entity) {
      stats.drop('refused_topic');
      return done(new Error(`Not allowed to publish on ${packet.topic}`));
    }
    // Charged before the broker does anything more with it; over budget, the device is not read
    // again until its bucket has refilled a little (TCP holds the rest of its flood back).
    if (!budget.admit(where.device, where.kind)) {
      stats.received++;
      stats.drop('over_budget');
      if (pauses.pause(client as unknown as PausableClient, budget.pauseMs(where.device, where.kind))) stats.paused++;
      broker.taken.add(packet);
      return done(null);
    }
    // QoS 2 is routed: the broker's store tells a retransmission from a new message.
    if (packet.qos !== 2) {
      broker.taken.add(packet);
      handlers.parsed(where, packet.payload as Buffer);
    }
    done(null);
  };

  broker.authorizeSubscribe = (client: DeviceClient, subscription, done) => {
    const device = client.fleet;
    const allowed =
      device &&
      (subscription.topic === topics.deviceCommands(device.entity, device.name) ||
        subscription.topic === topics.entityCommands(device.entity));
    if (!allowed) stats.drop('refused_topic');
    // A refused subscription is answered with 0x80 in the SUBACK, the connection stays.
    done(null, allowed ? subscription : null);
  };

  // Reachable once it listens: a command published between CONNECT and SUBSCRIBE would be lost,
  // so a device counts as online from its subscription to its own command topic (or its first message).
  broker.on('subscribe', (subscriptions, client: DeviceClient) => {
    const device = client?.fleet;
    if (device && subscriptions.some((sub) => sub.topic === topics.deviceCommands(device.entity, device.name))) {
      handlers.presence(device.name, true);
    }
  });
  // On a takeover Aedes ends the old connection before the new one subscribes, so offline then
  // online arrive in that order.
  broker.on('clientDisconnect', (client: DeviceClient) => {
    if (client.fleet) handlers.presence(client.fleet.name, false);
  });

  for (const filter of SERVER_SUBSCRIPTIONS) {
    await new Promise<void>((resolve) =>
      broker.subscribe(
        filter,
        (packet, done) => {
          handlers.message(packet.topic, packet.payload as Buffer);
          done();
        },
        resolve,
      ),
    );
  }

  // Over budget for too long: the connection ends now; reconnects are refused until the cool-down ends.
  budget.onCutOff = (device) => clients()[device]?.close();

  // New credentials or a deleted device: the old session ends now, not at its next reconnect.
  opts.bus.subscribe('devices.changed', (change: DevicesChanged) => {
    for (const client of Object.values(clients())) {
      const device = client.fleet;
      if (!device) continue;
      const hit =
        'all' in change || ('names' in change ? change.names.includes(device.name) : device.entity === change.entity);
      if (hit) client.close();
    }
  });

  const server = net.createServer((socket) => gate.take(socket, broker.handle));
  let port = opts.port;

  return {
    get url() {
      return `mqtt://${opts.host === '0.0.0.0' ? 'localhost' : opts.host}:${port}`;
    },
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(opts.port, opts.host, () => resolve());
      });
      port = (server.address() as net.AddressInfo).port;
    },
    connected: () => broker.connectedClients,
    publish(topic, message) {
      return new Promise((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(JSON.stringify(message)), qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
    },
    async close() {
      for (const client of Object.values(clients())) client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
