import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { commands } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { findDeviceInScope } from '../device/device-scope.ts';
import { presentCommand } from './present-command.ts';

/** A device's commands, newest first; another entity's device is not found. */
export async function listDeviceCommands(db: Db, scope: Scope, name: string, page: { limit: number; offset: number }) {
  const device = await findDeviceInScope(db, name, scope);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(commands)
      .where(eq(commands.device, device.name))
      .orderBy(desc(commands.created_at), desc(commands.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(commands).where(eq(commands.device, device.name)),
  ]);
  return { data: rows.map(presentCommand), total: total?.n ?? 0 };
}
