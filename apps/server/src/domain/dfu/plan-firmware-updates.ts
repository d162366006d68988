import type { Db } from '../../db/client.ts';
import { firmwareById, newestFirmwareFor, placeDevices, type FirmwareRow } from './choose-firmware.ts';

/** Which devices get which firmware, and which get none (with the reason). */
export interface UpdatePlan {
  batches: Array<{ firmware: FirmwareRow; devices: string[] }>;
  refused: Array<{ device: string; error: string }>;
  missing: string[];
}

/**
 * Chooses the firmware of each named device: the one `firmwareId` names (for devices of its
 * type), or the newest for the device's type at its most specific level. One lookup per kind of
 * device (type, group, site), not per device.
 */
export async function planFirmwareUpdates(
  db: Db,
  entity: string,
  names: string[],
  firmwareId?: string,
): Promise<UpdatePlan> {
  const chosen = firmwareId ? await firmwareById(db, entity, firmwareId) : null;
  const placed = await placeDevices(db, entity, names);
  const found = new Set(placed.map((p) => p.name));
  const plan: UpdatePlan = { batches: [], refused: [], missing: names.filter((n) => !found.has(n)) };
  const byFirmware = new Map<string, { firmware: FirmwareRow; devices: string[] }>();
  const lookups = new Map<string, Promise<FirmwareRow | null>>();
  for (const d of placed) {
    let fw: FirmwareRow | null;
    if (chosen) {
      fw = chosen.device_type === d.type ? chosen : null;
      if (!fw) {
        plan.refused.push({ device: d.name, error: `Firmware ${chosen.version} is for ${chosen.device_type} devices` });
        continue;
      }
    } else {
      const key = JSON.stringify([d.type, d.group, d.site]);
      if (!lookups.has(key)) lookups.set(key, newestFirmwareFor(db, entity, d));
      fw = await lookups.get(key)!;
      if (!fw) {
        plan.refused.push({ device: d.name, error: `No firmware uploaded for ${d.type} devices` });
        continue;
      }
    }
    const batch = byFirmware.get(fw.id) ?? { firmware: fw, devices: [] };
    batch.devices.push(d.name);
    byFirmware.set(fw.id, batch);
  }
  plan.batches = [...byFirmware.values()];
  return plan;
}
