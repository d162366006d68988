import { eq } from 'drizzle-orm';
import type { Device } from '@fleet/shared/schemas/device';
import type { Executor } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';

export type DeviceRow = typeof devices.$inferSelect;

/** The device named in the scope, or 404: another entity's device is answered as a missing one. */
export async function findDeviceInScope(db: Executor, name: string, scope: Scope): Promise<DeviceRow> {
  const [row] = await db.select().from(devices).where(eq(devices.name, name)).limit(1);
  if (!row || (scope !== null && row.entity !== scope)) throw notFound('Device');
  return row;
}

/** What the API shows of a device: never its MQTT secret hash nor its certificate's text. */
export function presentDevice(row: DeviceRow): Device {
  return {
    name: row.name,
    description: row.description,
    entity: row.entity,
    group: row.group,
    manufacturing_type: row.manufacturing_type,
    version_id: row.version_id,
    mac_1: row.mac_1,
    mac_2: row.mac_2,
    has_certificate: row.x509_certificate !== null,
    fw_version: row.fw_version,
    state: { current: row.state_current },
    battery: row.battery,
    is_charging: row.is_charging,
    last_dispenser: row.last_dispenser ? { dispenser: row.last_dispenser } : null,
    current_provision: row.current_provision,
    current_download: row.current_download,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    online: row.online,
  };
}
