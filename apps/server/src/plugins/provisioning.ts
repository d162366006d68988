import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../domain/deps.ts';
import { startProvisioning, type Provisioning } from '../domain/provision/start-provisioning.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Provisioning on this instance (routes/provision reads it). */
    provisioning: Provisioning;
  }
}

/**
 * Provisioning started as a feature of the device side: it registers the devices' provisioning
 * reports on the router before the broker takes messages, and applies what is queued on close.
 */
export const provisioningPlugin = fp(
  async (app: FastifyInstance, { deps }: { deps: Deps }) => {
    const provisioning = startProvisioning({
      db: deps.db,
      bus: deps.bus,
      link: app.devices.link,
      downloads: deps.downloads,
      telemetry: app.devices.telemetry,
      config: deps.config,
      onError: (err, what) => app.log.error({ err }, `provisioning: ${what} failed`),
    });
    app.devices.router.register('provision', (device, event) => provisioning.onReport(device.name, event));
    app.addHook('preClose', () => provisioning.close());
    app.decorate('provisioning', provisioning);
  },
  { name: 'provisioning', dependencies: ['devices'] },
);
