import { count, desc, eq } from 'drizzle-orm';
import type { Command } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { commands } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { dataviewReader, withholdUnreadable, type DataviewReader } from '../dataview/dataview-reader.ts';
import { findDeviceInScope } from '../device/device-scope.ts';
import { presentCommand, type CommandRow } from './present-command.ts';

/** The dataviews an `allocate` command carried to the device (name → content); none for other commands. */
function appsOf(row: CommandRow): Record<string, unknown> {
  const apps = row.type === 'allocate' ? row.payload.apps : undefined;
  return apps !== null && typeof apps === 'object' && !Array.isArray(apps) ? (apps as Record<string, unknown>) : {};
}

/** A command as `mayRead`'s holder sees it: an allocation's dataviews it may not read by name only. */
function presentFor(row: CommandRow, mayRead: DataviewReader): Command {
  const command = presentCommand(row);
  if (row.type !== 'allocate') return command;
  return { ...command, payload: { ...command.payload, apps: withholdUnreadable(row.entity, appsOf(row), mayRead) } };
}

/**
 * A device's commands, newest first; another entity's device is not found. An `allocate`
 * command shows a dataview's content only to those who may read that dataview (fleet §6).
 */
export async function listDeviceCommands(
  db: Db,
  actor: AccessClaims,
  scope: Scope,
  name: string,
  page: { limit: number; offset: number },
) {
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
  const mayRead = await dataviewReader(
    db,
    actor,
    rows.map((r) => ({ entity: r.entity, names: Object.keys(appsOf(r)) })),
  );
  return { data: rows.map((r) => presentFor(r, mayRead)), total: total?.n ?? 0 };
}
