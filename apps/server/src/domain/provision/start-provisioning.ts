import type { FastifyInstance } from 'fastify';
import { ProvisionDeviceEventSchema } from '@fleet/shared/provision';
import type { Deps } from '../deps.ts';
import { EventStreams } from './event-streams.ts';
import { ProvisionService } from './provision-service.ts';

/**
 * With an external broker, how long provisioning waits for a device not yet online to be heard
 * from: the report after its subscription crosses the broker and a telemetry batch (50 ms).
 */
const PRESENCE_GRACE_MS = 1_000;

export interface Provisioning {
  service: ProvisionService;
  streams: EventStreams;
}

/**
 * Provisioning on this instance: the service, the device's reports routed to it from MQTT, the
 * timeout sweep, and the event streams (closed at once when the server shuts down).
 */
export function startProvisioning(app: FastifyInstance, deps: Deps): Provisioning {
  const onError = (err: unknown, what: string) => app.log.error({ err }, `provisioning: ${what} failed`);
  const service = new ProvisionService({
    db: deps.db,
    bus: deps.bus,
    link: deps.devices.link,
    downloads: deps.downloads,
    telemetry: deps.devices.telemetry,
    // The embedded broker reports a subscription first-hand; an external one only through the
    // device's report after it, which may still be on its way.
    presenceGraceMs: deps.config.MQTT_URL ? PRESENCE_GRACE_MS : 0,
    timeoutMs: deps.config.PROVISION_TIMEOUT_MS,
    // The embedded database has one owner, so this instance is the only one hearing devices.
    sole: !deps.config.DATABASE_URL,
    onError,
  });
  const streams = new EventStreams(deps.db, deps.bus, (err) => onError(err, 'an event stream'), service.reports);
  deps.devices.provisioning.handler = (device, body) => {
    const event = ProvisionDeviceEventSchema.safeParse(body);
    if (!event.success) return false;
    service.onDeviceEvent(device.name, event.data).catch((err) => onError(err, 'recording a device report'));
    return true;
  };
  const every = Math.min(5_000, Math.max(100, Math.floor(deps.config.PROVISION_TIMEOUT_MS / 4)));
  const sweeper = setInterval(() => void service.sweep().catch((err) => onError(err, 'the timeout sweep')), every);
  sweeper.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    streams.closeAll();
    // Reports still queued are applied before the database closes.
    await service.reports.close();
  });
  return { service, streams };
}
