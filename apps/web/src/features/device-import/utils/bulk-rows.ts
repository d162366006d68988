import { DEFAULT_NEW_DEVICE_TYPE } from '@fleet/shared/constants';
import { DeviceCreateDocumentSchema, type DeviceCreateDocument } from '@fleet/shared/schemas/device';
import type { CsvDevice } from './device-csv.ts';

/** A device of the file after checking; `issue` says why it will not be sent. */
export interface BulkRow extends CsvDevice {
  issue?: string;
}

const RowSchema = DeviceCreateDocumentSchema.pick({ name: true, description: true, version_id: true });
const LABELS: Record<string, string> = { name: 'Device ID', description: 'Description', version_id: 'Version ID' };

/**
 * Checks every row with the shared rules before anything is sent (fleet §5): the Device ID
 * format (and the description and version limits), and ids listed twice in the same file.
 */
export function checkRows(devices: readonly CsvDevice[]): BulkRow[] {
  const firstLine = new Map<string, number>();
  return devices.map((device) => {
    const parsed = RowSchema.safeParse(device);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = LABELS[String(issue?.path[0])] ?? 'Row';
      return { ...device, issue: `${field}: ${issue?.message ?? 'invalid'}` };
    }
    const seen = firstLine.get(device.name);
    if (seen !== undefined) return { ...device, issue: `Device ID: listed twice (also on line ${seen})` };
    firstLine.set(device.name, device.line);
    return device;
  });
}

/**
 * The POST device document of a row (fleet §7: name, description, manufacturing_type,
 * version_id). Uploaded devices are CC1 whatever manufacture type was typed (fleet §3, §5);
 * the landlord names the entity.
 */
export function rowDocument(row: CsvDevice, entity?: string): DeviceCreateDocument {
  return {
    name: row.name,
    description: row.description,
    manufacturing_type: DEFAULT_NEW_DEVICE_TYPE,
    ...(row.version_id !== '' && { version_id: row.version_id }),
    ...(entity !== undefined && { entity }),
  };
}
