import { devicesPath } from '@/lib/api/device-paths.ts';
import { downloadExport } from '@/lib/api/download-export.ts';
import { toExportQuery, type DeviceListState } from '../utils/list-query.ts';

/** Downloads the filtered, sorted list as the server streams it (`…/device/export?format=csv`). */
export function exportDevices(landlord: boolean, state: DeviceListState): Promise<string> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(toExportQuery(state, landlord))) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  return downloadExport(`${devicesPath(landlord)}/export`, query, 'devices.csv');
}
