import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { CommandService } from '../domain/command/command-service.ts';
import { ReplyWaiters } from '../domain/command/reply-waiters.ts';
import { TelemetryBatcher } from '../domain/telemetry/telemetry-batcher.ts';
import type { Bus } from '../lib/bus.ts';
import { DeviceAccess } from './device-access.ts';
import { DeviceDirectory } from './device-directory.ts';
import { LinkStats, type DeviceLink } from './device-link.ts';
import { MosquittoDynsec } from './dynsec.ts';
import { startEmbeddedBroker } from './embedded-broker.ts';
import { connectExternalBroker } from './external-broker.ts';
import { createIngest, type BeaconRoute } from './ingest.ts';

/** How often every instance sweeps commands (expiry, timeouts, held ones of devices now online). */
const SWEEP_MS = 5_000;

export interface DeviceSide {
  link: DeviceLink;
  commands: CommandService;
  access: DeviceAccess;
  telemetry: TelemetryBatcher;
  stats: LinkStats;
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
  const handlers = createIngest({
    directory,
    stats,
    telemetry,
    commands: () => box.commands,
    beacons,
    provisioning,
    onError,
  });

  let link: DeviceLink;
  let dynsec: MosquittoDynsec | null = null;
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
    link = await startEmbeddedBroker({ port: config.MQTT_PORT, host: config.HOST, directory, bus, stats, handlers });
    log.info({ url: link.url }, 'mqtt broker listening');
  }

  const commands = new CommandService({
    db,
    link,
    waiters: new ReplyWaiters(bus),
    telemetry,
    timeoutMs: config.COMMAND_REPLY_TIMEOUT_MS,
    dfuTimeoutMs: config.DFU_TIMEOUT_S * 1000,
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
    beacons,
    provisioning,
    async close() {
      clearInterval(sweeper);
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
