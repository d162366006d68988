import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { placeDevices } from '../dfu/choose-firmware.ts';

export interface DeviceFile {
  id: string;
  filename: string;
  device_path: string;
  sha256: string;
  size: number;
}

/**
 * The files a device is provisioned with: those of its entity, its group's site and its group,
 * one per device path, the most specific level winning (then the newest upload). A file without
 * a device path goes to its file name.
 */
export async function filesForDevice(db: Db, entity: string, device: string): Promise<DeviceFile[]> {
  const [placed] = await placeDevices(db, entity, [device]);
  if (!placed) return [];
  const rows = rowsOf<DeviceFile & { size: number | string }>(
    await db.execute(sql`
      select distinct on (coalesce(file_device_path, filename))
        id::text as id, filename, coalesce(file_device_path, filename) as device_path, sha256, size_bytes as size
      from files
      where entity = ${entity}
        and ((level = 'group' and target = ${placed.group}::text)
          or (level = 'site' and target = ${placed.site}::text)
          or (level = 'entity' and target = ${entity}))
      order by coalesce(file_device_path, filename),
        case level when 'group' then 0 when 'site' then 1 else 2 end, upload_date desc, id desc`),
  );
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}
