import { and, eq, or } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices, groups, kiosks, sites } from '../../db/schema.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { assertUnused, findNamed } from './named-rows.ts';
import { assertMayWrite } from './org-access.ts';

const names = (rows: { name: string }[]) => rows.map((r) => r.name);

/** Who still refers to a site, kiosk or group of the entity. */
async function usersOf(
  db: Db,
  kind: 'site' | 'kiosk' | 'group',
  entity: string,
  name: string,
): Promise<Record<string, string[]>> {
  if (kind === 'site') {
    const [g, k] = await Promise.all([
      db
        .select({ name: groups.name })
        .from(groups)
        .where(and(eq(groups.entity, entity), eq(groups.site, name))),
      db
        .select({ name: kiosks.name })
        .from(kiosks)
        .where(and(eq(kiosks.entity, entity), eq(kiosks.site, name))),
    ]);
    return { groups: names(g), kiosks: names(k) };
  }
  if (kind === 'kiosk') {
    const g = await db
      .select({ name: groups.name })
      .from(groups)
      .where(and(eq(groups.entity, entity), eq(groups.kiosk, name)));
    return { groups: names(g) };
  }
  const d = await db
    .select({ name: devices.name })
    .from(devices)
    .where(and(eq(devices.entity, entity), or(eq(devices.group, name), eq(devices.last_dispenser, name))))
    .orderBy(devices.name)
    .limit(101);
  return { devices: names(d) };
}

const TABLES = { site: sites, kiosk: kiosks, group: groups } as const;
const WHAT = { site: 'Site', kiosk: 'Kiosk', group: 'Group' } as const;

/**
 * Deletes a site, kiosk or group of the entity, or refuses (409, naming them) while groups,
 * kiosks or devices still refer to it. The foreign keys refuse too, should one appear meanwhile.
 */
export async function deleteNamed(
  db: Db,
  actor: AccessClaims,
  kind: keyof typeof TABLES,
  entity: string,
  name: string,
) {
  assertMayWrite(actor, kind === 'group' ? 'Group' : 'Site');
  const table = TABLES[kind];
  const target = await findNamed(db, table, entity, name, WHAT[kind]);
  assertUnused(WHAT[kind], target.name, await usersOf(db, kind, entity, target.name));
  try {
    await db.delete(table).where(eq(table.id, target.id));
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    throw new HttpError(409, `${WHAT[kind]} ${target.name} is still in use`, 'Referenced by another row');
  }
}
