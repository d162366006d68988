import { and, desc, eq, sql } from 'drizzle-orm';
import type { FileLevel } from '@fleet/shared/schemas/files';
import type { Db } from '../../db/client.ts';
import { files, firmware } from '../../db/schema.ts';
import { resolveTarget } from './file-levels.ts';
import { presentFile, presentFirmware } from './present.ts';

type TargetQuery = { level: FileLevel } & Partial<Record<string, string>>;

/** The files of one target, newest first (fleet §7: the answer carries `files`). */
export async function listFiles(db: Db, entity: string, q: TargetQuery) {
  const { level, target } = await resolveTarget(db, entity, q.level, q);
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.entity, entity), eq(files.level, level), eq(files.target, target)))
    .orderBy(desc(files.upload_date), desc(files.id));
  return { files: rows.map(presentFile), total: rows.length };
}

/** The firmware of one target, optionally of one device type, newest release first. */
export async function listFirmware(db: Db, entity: string, q: TargetQuery & { device_type?: 'CC1' | 'CC2' }) {
  const { level, target } = await resolveTarget(db, entity, q.level, q);
  const rows = await db
    .select()
    .from(firmware)
    .where(
      and(
        eq(firmware.entity, entity),
        eq(firmware.level, level),
        eq(firmware.target, target),
        q.device_type ? eq(firmware.device_type, q.device_type) : sql`true`,
      ),
    )
    .orderBy(desc(firmware.release_date), desc(firmware.id));
  return { files: rows.map(presentFirmware), total: rows.length };
}
