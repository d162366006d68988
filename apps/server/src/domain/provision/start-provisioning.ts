import type { ProvisionDeviceEvent } from '@fleet/shared/provision';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Bus } from '../../lib/bus.ts';
import { every } from '../../lib/periodic.ts';
import type { DownloadSigner } from '../../storage/signed-urls.ts';
import type { DeviceLink } from '../device-link.ts';
import type { TelemetryBatcher } from '../telemetry/telemetry-batcher.ts';
import { EventStreams } from './event-streams.ts';
import { ProvisionService } from './provision-service.ts';

/**
 * With an external broker, how long provisioning waits for a device not yet online to be heard
 * from: the report after its subscription crosses the broker and a telemetry batch (50 ms).
 */
const PRESENCE_GRACE_MS = 1_000;

interface Options {
  db: Db;
  bus: Bus;
  link: DeviceLink;
  downloads: DownloadSigner;
  telemetry: Pick<TelemetryBatcher, 'settle'>;
  config: Pick<Config, 'MQTT_URL' | 'DATABASE_URL' | 'PROVISION_TIMEOUT_MS'>;
  onError(err: unknown, what: string): void;
}

export interface Provisioning {
  service: ProvisionService;
  streams: EventStreams;
  /** A device's report, already checked (mqtt/device-router.ts): queued to be applied. */
  onReport(device: string, event: ProvisionDeviceEvent): void;
  /** Stops the timeout sweep, ends the event streams and applies the reports still queued. */
  close(): Promise<void>;
}

/** Provisioning on this instance: the service, the timeout sweep and the event streams. */
export function startProvisioning(o: Options): Provisioning {
  const { config, onError } = o;
  const service = new ProvisionService({
    db: o.db,
    bus: o.bus,
    link: o.link,
    downloads: o.downloads,
    telemetry: o.telemetry,
    // The embedded broker reports a subscription first-hand; an external one only through the
    // device's report after it, which may still be on its way.
    presenceGraceMs: config.MQTT_URL ? PRESENCE_GRACE_MS : 0,
    timeoutMs: config.PROVISION_TIMEOUT_MS,
    // The embedded database has one owner, so this instance is the only one hearing devices.
    sole: !config.DATABASE_URL,
    onError,
  });
  const streams = new EventStreams(o.db, o.bus, (err) => onError(err, 'an event stream'), service.reports);
  const sweeper = every(
    Math.min(5_000, Math.max(100, Math.floor(config.PROVISION_TIMEOUT_MS / 4))),
    () => service.sweep(),
    (err) => onError(err, 'the timeout sweep'),
  );
  return {
    service,
    streams,
    onReport(device, event) {
      service.onDeviceEvent(device, event).catch((err) => onError(err, 'recording a device report'));
    },
    async close() {
      await sweeper.stop();
      streams.closeAll();
      // Reports still queued are applied before the database closes.
      await service.reports.close();
    },
  };
}
