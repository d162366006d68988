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
import { sweepFleetDaily } from '../domain/fleet-health/fleet-daily-sweep.ts';
import { foldFleetCounts } from '../domain/fleet-health/fleet-now.ts';
import { sweepTelemetry } from '../domain/telemetry/telemetry-sweep.ts';
import type { Bus } from '../lib/bus.ts';
import { every } from '../lib/periodic.ts';
import { AuthThrottle } from './auth-throttle.ts';
import { ConnectionGate } from './connection-gate.ts';
import { DeviceAccess } from './device-access.ts';
import { DeviceBudget } from './device-budget.ts';
import { DeviceDirectory } from './device-directory.ts';
import { LinkStats, type BrokerLink } from './device-link.ts';
import { createDeviceRouter, type DeviceRouter } from './device-router.ts';
import type { MosquittoDynsec } from './dynsec.ts';
import { createEmbeddedBroker } from './embedded-broker.ts';

/** How often every instance sweeps commands (expiry, timeouts, held ones of devices now online). */
const SWEEP_MS = 5_000;
/** The longest back-off after wrong device secrets. */
const MAX_AUTH_BACKOFF_MS = 5 * 60_000;
/** How often the telemetry history's partitions, hourly roll-up and retention are seen to. */
const HISTORY_SWEEP_MS = 60 * 60_000;
/** How often the fleet counts' rows (migration 0028) are folded into one per key. */
const FOLD_COUNTS_MS = 60_000;

export interface DeviceSide {
  /** Publishes at once; takes devices' messages from `listen()` on. */
  link: BrokerLink;
  /** Where each device message goes: features register their kinds before `listen()`. */
  router: DeviceRouter;
  commands: CommandService;
  access: DeviceAccess;
  telemetry: TelemetryBatcher;
  stats: LinkStats;
  /** Per-device message budgets (both brokers). */
  budget: DeviceBudget;
  /** The embedded broker's unauthenticated sockets and oversized packets (null with MQTT_URL). */
  gate: ConnectionGate | null;
  /** Seals the router and lets devices' messages in (the embedded broker starts listening). */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The MQTT side of the server: the embedded broker (or the link to MQTT_URL), the router of what
 * devices send, with telemetry and commands registered on it, and commands flowing out. Devices'
 * messages are taken only from `listen()` on, once the other features have registered theirs.
 */
export async function startDeviceSide(config: Config, db: Db, bus: Bus, log: FastifyBaseLogger): Promise<DeviceSide> {
  const onError = (err: unknown, what: string) => log.error({ err }, `mqtt: ${what} failed`);
  const stats = new LinkStats();
  const directory = new DeviceDirectory(db, bus);
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
  const router = createDeviceRouter({
    directory,
    stats,
    // The embedded broker charges the budget itself, before it routes a packet.
    budget: config.MQTT_URL ? budget : null,
    onError,
  });
  const handlers = router.handlers;

  let link: BrokerLink;
  let dynsec: MosquittoDynsec | null = null;
  let gate: ConnectionGate | null = null;
  if (config.MQTT_URL) {
    // The MQTT client is loaded only with an external broker (the embedded one does not carry it).
    const { connectExternalBroker } = await import('./external-broker.ts');
    const external = await connectExternalBroker({
      url: config.MQTT_URL,
      shareGroup: config.MQTT_SHARE_GROUP,
      handlers,
      onError: (err) => onError(err, 'the broker connection'),
    });
    if (config.MQTT_DEVICE_AUTH === 'mosquitto-dynsec')
      dynsec = await (
        await import('./dynsec.ts')
      ).MosquittoDynsec.attach(external.client, decodeURIComponent(new URL(config.MQTT_URL).username));
    link = external;
  } else {
    // Nobody is connected to a broker that has not started yet: each one so marked is a
    // disconnect in its history.
    await db.execute(sql`
      with gone as (update devices set online = false where online
        returning entity, name, state_current, battery, is_charging, fw_version)
      insert into device_telemetry (entity, device, at, kind, online, state, battery, is_charging, fw_version)
      select entity, name, now(), 'offline', false, state_current, battery, is_charging, fw_version from gone`);
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
    link = await createEmbeddedBroker({
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
  }

  const commands = new CommandService({
    db,
    link,
    waiters: new ReplyWaiters(bus),
    timeoutMs: config.COMMAND_REPLY_TIMEOUT_MS,
    dfuTimeoutMs: config.DFU_TIMEOUT_S * 1000,
    // What each feature does when its command settles; command/ knows none of them.
    settle: [
      onDfuSettled,
      onAllocationSettled,
      stateInReply((device, state) => telemetry.report(device, state, new Date(), false)),
    ],
    onError,
  });
  // Woken devices are owed their held commands; messages arrive only after `listen()`, by then
  // both exist.
  const telemetry = new TelemetryBatcher(db, {
    onWoken: (woken) => void commands.deliverHeld(woken).catch((err) => onError(err, 'delivering held commands')),
    onRefused: (name, err) => {
      stats.drop('write_failed');
      log.warn({ err, device: name }, 'mqtt: the database refused a state report; only its sign of life was kept');
    },
    onError: (err) => onError(err, 'writing telemetry'),
  });
  // The device side's own kinds: state and signs of life to telemetry, replies and DFU progress
  // to commands. Beacons and provisioning register theirs as plugins (app.ts).
  router.register('state', (device, report) => telemetry.report(device.name, report));
  router.register('alive', (device) => telemetry.report(device.name));
  router.register('presence', (device, online) => telemetry.presence(device, online));
  router.register('reply', (device, reply) => commands.onReply(device.name, reply));
  router.register('dfu', (device, event) => commands.onProgress(device.name, event));
  const sweeper = every(
    SWEEP_MS,
    () => commands.sweep(),
    (err) => onError(err, 'sweeping commands'),
  );
  // The history's partitions exist before the first report is written (else the default one holds it).
  const retention = { rawDays: config.TELEMETRY_RAW_DAYS, hourlyDays: config.TELEMETRY_HOURLY_DAYS };
  // Then the daily fleet snapshot, which reads the roll-up the telemetry sweep just made.
  const sweepHistory = () => sweepTelemetry(db, retention).then(() => sweepFleetDaily(db, retention.hourlyDays));
  const historyFailed = (err: unknown) => onError(err, 'sweeping telemetry history');
  await sweepHistory().catch(historyFailed);
  const historySweeper = every(HISTORY_SWEEP_MS, sweepHistory, historyFailed);
  const countsFolder = every(
    FOLD_COUNTS_MS,
    () => foldFleetCounts(db),
    (err) => onError(err, 'folding fleet counts'),
  );

  return {
    link,
    router,
    commands,
    access: new DeviceAccess(bus, dynsec),
    telemetry,
    stats,
    budget,
    gate,
    async listen() {
      router.seal();
      await link.listen();
      if (!config.MQTT_URL) log.info({ url: link.url }, 'mqtt broker listening');
    },
    async close() {
      // A sweep under way ends before the database closes.
      await Promise.all([sweeper.stop(), historySweeper.stop(), countsFolder.stop()]);
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
