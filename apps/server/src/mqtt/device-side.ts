import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { onAllocationSettled } from '../domain/allocation/on-allocation-settled.ts';
import { CommandService } from '../domain/command/command-service.ts';
import { ReplyWaiters } from '../domain/command/reply-waiters.ts';
import { stateInReply } from '../domain/command/state-in-reply.ts';
import { onDfuSettled } from '../domain/dfu/on-dfu-settled.ts';
import { TelemetryBatcher } from '../domain/telemetry/telemetry-batcher.ts';
import type { Bus } from '../lib/bus.ts';
import { AuthThrottle } from './auth-throttle.ts';
import { ConnectionGate } from './connection-gate.ts';
import { DeviceAccess } from './device-access.ts';
import { DeviceBudget } from './device-budget.ts';
import { DeviceDirectory } from './device-directory.ts';
import { LinkStats, type DeviceLink } from './device-link.ts';
import { MosquittoDynsec } from './dynsec.ts';
import { startEmbeddedBroker } from './embedded-broker.ts';
import { connectExternalBroker } from './external-broker.ts';
import { createIngest, type BeaconRoute } from './ingest.ts';

/** How often every instance sweeps commands (expiry, timeouts, held ones of devices now online). */
const SWEEP_MS = 5_000;
/** The longest back-off after wrong device secrets. */
const MAX_AUTH_BACKOFF_MS = 5 * 60_000;

export interface DeviceSide {
  link: DeviceLink;
  commands: CommandService;
  access: DeviceAccess;
  telemetry: TelemetryBatcher;
  stats: LinkStats;
  /** Per-device message budgets (both brokers). */
  budget: DeviceBudget;
  /** The embedded broker's unauthenticated sockets and oversized packets (null with MQTT_URL). */
  gate: ConnectionGate | null;
  /** Where beacon sightings are routed (set by the beacon side). */
  beacons: BeaconRoute;
  /** Where provisioning reports on `…/events` are routed (set by domain/provision). */
  provisioning: BeaconRoute;
  close(): Promise<void>;
}

/**
 * The MQTT side of the server: the embedded broker (or the link to MQTT_URL), what devices send
 * flowing into telemetry and command replies, and commands flowing out.
 */
export async function startDeviceSide(config: Config, db: Db, bus: Bus, log: FastifyBaseLogger): Promise<DeviceSide> {
  const onError = (err: unknown, what: string) => log.error({ err }, `mqtt: ${what} failed`);
  const stats = new LinkStats();
  const directory = new DeviceDirectory(db, bus);
  // The command service needs the link and the link needs the handlers: messages that arrive
  // before it exists are held in this box.
  const box: { commands?: CommandService } = {};
  const telemetry = new TelemetryBatcher(db, {
    onWoken: (woken) => void box.commands?.deliverHeld(woken).catch((err) => onError(err, 'delivering held commands')),
    onRefused: (name, err) => {
      stats.drop('write_failed');
      log.warn({ err, device: name }, 'mqtt: the database refused a state report; only its sign of life was kept');
    },
    onError: (err) => onError(err, 'writing telemetry'),
  });
  const beacons: BeaconRoute = {};
  const provisioning: BeaconRoute = {};
  const budget = new DeviceBudget({
    kinds: {
      state: config.MQTT_BUDGET_STATE,
      reply: config.MQTT_BUDGET_REPLY,
      events: config.MQTT_BUDGET_EVENTS,
      beacon: config.MQTT_BUDGET_BEACON,
    },
    cutOffAfterMs: config.MQTT_BUDGET_CUTOFF_S * 1000,
    coolDownMs: config.MQTT_BUDGET_COOLDOWN_S * 1000,
  });
  const handlers = createIngest({
    directory,
    stats,
    // The embedded broker charges the budget itself, before it routes a packet.
    budget: config.MQTT_URL ? budget : null,
    telemetry,
    commands: () => box.commands,
    beacons,
    provisioning,
    onError,
  });

  let link: DeviceLink;
  let dynsec: MosquittoDynsec | null = null;
  let gate: ConnectionGate | null = null;
  if (config.MQTT_URL) {
    const external = await connectExternalBroker({
      url: config.MQTT_URL,
      shareGroup: config.MQTT_SHARE_GROUP,
      handlers,
      onError: (err) => onError(err, 'the broker connection'),
    });
    if (config.MQTT_DEVICE_AUTH === 'mosquitto-dynsec')
      dynsec = await MosquittoDynsec.attach(external.client, decodeURIComponent(new URL(config.MQTT_URL).username));
    link = external;
  } else {
    // Nobody is connected to a broker that has not started yet.
    await db.execute(sql`update devices set online = false where online`);
    gate = new ConnectionGate({
      maxPending: config.MQTT_MAX_UNAUTHENTICATED,
      maxPendingPerAddress: config.MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS,
      connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_MS,
    });
    const throttle = new AuthThrottle({
      perPair: config.MQTT_AUTH_FAILURES,
      perAddress: config.MQTT_AUTH_ADDRESS_FAILURES,
      perDevice: config.MQTT_AUTH_DEVICE_FAILURES,
      backoffMs: config.MQTT_AUTH_BACKOFF_MS,
      maxBackoffMs: Math.max(MAX_AUTH_BACKOFF_MS, config.MQTT_AUTH_BACKOFF_MS),
    });
    link = await startEmbeddedBroker({
      port: config.MQTT_PORT,
      host: config.HOST,
      connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_MS,
      directory,
      bus,
      stats,
      handlers,
      gate,
      throttle,
      budget,
    });
    log.info({ url: link.url }, 'mqtt broker listening');
  }

  const commands = new CommandService({
    db,
    link,
    waiters: new ReplyWaiters(bus),
    timeoutMs: config.COMMAND_REPLY_TIMEOUT_MS,
    dfuTimeoutMs: config.DFU_TIMEOUT_S * 1000,
    // What each feature does when its command settles; command/ knows none of them.
    settle: [onDfuSettled, onAllocationSettled, stateInReply((device, state) => telemetry.report(device, state))],
    onError,
  });
  box.commands = commands;
  const sweeper = setInterval(() => void commands.sweep().catch((err) => onError(err, 'sweeping commands')), SWEEP_MS);
  sweeper.unref();

  return {
    link,
    commands,
    access: new DeviceAccess(bus, dynsec),
    telemetry,
    stats,
    budget,
    gate,
    beacons,
    provisioning,
    async close() {
      clearInterval(sweeper);
      // Replies arriving meanwhile still answer their calls; the broker closes after.
      await commands.drain(config.SHUTDOWN_DRAIN_MS);
      await link.close();
      await telemetry.flush();
      await commands.flushProgress();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The MQTT side (tests read the embedded broker's address from `devices.link.url`). */
    devices: DeviceSide;
  }
}
