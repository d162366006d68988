import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { startEmbeddedVacuum } from '../db/embedded-vacuum.ts';
import type { Bus } from '../lib/bus.ts';
import { startDeviceSide } from '../mqtt/device-side.ts';

/**
 * The device side (mqtt/device-side.ts): the router, telemetry and commands, and the broker's link,
 * which publishes at once but takes devices' messages only from `app.devices.listen()`, once the
 * features have registered their handlers.
 */
export const devicesPlugin = fp(
  async (app: FastifyInstance, { config, bus }: { config: Config; bus: Bus }) => {
    const devices = await startDeviceSide(config, app.db, bus, app.log);
    // A command sent by a request settles under that request's id, on whichever instance the reply came to.
    devices.commands.onSettled((rows) => {
      for (const r of rows)
        if (r.request_id)
          app.log.info(
            { reqId: r.request_id, command: r.id, type: r.type, device: r.device, state: r.state },
            'command settled',
          );
    });
    // Before the database closes: the broker stops and pending telemetry is written.
    app.addHook('preClose', () => devices.close());
    // PostgreSQL has autovacuum; PGlite runs none, so the server does its work (a vacuum under way
    // ends before the database closes).
    if (app.database.kind === 'pglite') {
      const vacuum = startEmbeddedVacuum(app.db, app.log);
      app.addHook('preClose', () => vacuum.stop());
    }
    app.decorate('devices', devices);
  },
  { name: 'devices', decorators: { fastify: ['db', 'database'] } },
);
