import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { topics } from '@fleet/shared/protocol';
import { BeaconConfigCache } from '../domain/beacon/beacon-config-cache.ts';
import { pruneBeaconEvents } from '../domain/beacon/prune-beacon-events.ts';
import { SightingBatcher } from '../domain/beacon/sighting-batcher.ts';
import type { Deps } from '../domain/deps.ts';
import { entityExists } from '../domain/entity/entity-exists.ts';
import { attachBeaconSocket, type BeaconSocket } from './beacon-socket.ts';

/** How often old beacon events are pruned. */
const PRUNE_EVERY_MS = 60 * 60_000;

export interface BeaconSide {
  socket: BeaconSocket;
  sightings: SightingBatcher;
}

/**
 * The beacon demo's server side: gateways' sightings (registered on the device router) become
 * events in batches, reminders go back to gateways, events reach browsers through `/beacon-demo`,
 * and old events are pruned. Shutdown disconnects sockets first and writes pending sightings.
 */
export const beaconSidePlugin = fp(
  async (app: FastifyInstance, { deps }: { deps: Deps }) => startBeaconSide(app, deps),
  {
    name: 'beacons',
    dependencies: ['devices'],
  },
);

async function startBeaconSide(app: FastifyInstance, deps: Deps): Promise<void> {
  const log = app.log;
  const socket = await attachBeaconSocket(app.server, {
    tokens: deps.tokens,
    sessions: deps.sessions,
    apiTokens: deps.apiTokens,
    live: deps.live,
    packetBudget: { perSecond: deps.config.SOCKET_PACKETS_PER_S, burst: deps.config.SOCKET_PACKET_BURST },
    redisUrl: deps.config.REDIS_URL,
    entityExists: (entity) => entityExists(deps.db, entity),
    onError: (err) => log.error({ err }, 'beacon socket redis error'),
  });
  const sightings = new SightingBatcher(deps.db, {
    cache: new BeaconConfigCache(deps.db, deps.bus),
    confirmAfterMs: deps.config.BEACON_CONFIRM_AFTER_S * 1000,
    mergeWindowMs: deps.config.BEACON_MERGE_WINDOW_S * 1000,
    quota: deps.config.BEACON_EVENTS_QUOTA,
    onEvents: (entity, events) => socket.emit(entity, events),
    sendReminder: (entity, gateway, message) =>
      app.devices.link.publish(topics.deviceCommands(entity, gateway), message),
    onError: (err, what) => log.error({ err }, `beacons: ${what} failed`),
  });
  app.devices.router.register('beacon', (device, body) => sightings.sighting(device, body));

  const prune = () =>
    void pruneBeaconEvents(deps.db, deps.config.BEACON_RETENTION_DAYS).catch((err) =>
      log.error({ err }, 'beacons: pruning failed'),
    );
  const pruner = setInterval(prune, PRUNE_EVERY_MS);
  pruner.unref();
  setImmediate(prune);

  app.addHook('preClose', async () => {
    clearInterval(pruner);
    socket.disconnectAll();
    await sightings.flush();
  });
  app.addHook('onClose', async () => socket.close());
  app.decorate('beacons', { socket, sightings } satisfies BeaconSide);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The beacon side (tests and the benchmark read its counters). */
    beacons: BeaconSide;
  }
}
