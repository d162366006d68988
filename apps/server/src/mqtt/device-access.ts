import type { Bus, DevicesChanged } from '../lib/bus.ts';
import type { IssuedCredentials, MosquittoDynsec } from './dynsec.ts';

/**
 * Where device credentials take effect. With the embedded broker the database is the truth and
 * every instance only forgets what it cached; an external Mosquitto also gets each secret (which
 * exists in plain text only while the API answers it) and loses the devices that go.
 */
export class DeviceAccess {
  constructor(
    private readonly bus: Bus,
    private readonly broker: MosquittoDynsec | null,
  ) {}

  async issued(list: IssuedCredentials[]): Promise<void> {
    await this.broker?.issue(list);
    await this.bus.publish('devices.changed', { names: list.map((d) => d.name) });
  }

  /** `names` are needed for an external broker; `change` says what instances forget. */
  async revoked(names: string[], change: DevicesChanged = { names }): Promise<void> {
    if (names.length > 0) await this.broker?.revoke(names);
    await this.bus.publish('devices.changed', change);
  }
}
