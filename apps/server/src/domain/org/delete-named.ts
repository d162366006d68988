import { and, eq, or } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices, groups, kiosks, sites } from '../../db/schema.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure } from '../audit/audited.ts';
import { presentGroup } from '../group/group-scope.ts';
import { presentKiosk } from '../kiosk/kiosk-scope.ts';
import { presentSite } from '../site/site-scope.ts';
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
  ctx: AuditContext,
  actor: AccessClaims,
  kind: keyof typeof TABLES,
  entity: string,
  name: string,
) {
  assertMayWrite(actor, kind === 'group' ? 'Group' : 'Site');
  const table = TABLES[kind];
  const target = await findNamed(db, table, entity, name, WHAT[kind]);
  const entry = { action: `${kind}.delete`, entity, target: { type: kind, name: target.name } } as const;
  const before = beforeOf(kind, target);
  const users = await usersOf(db, kind, entity, target.name);
  try {
    assertUnused(WHAT[kind], target.name, users);
  } catch (err) {
    // A refusal changes nothing: recorded as a failure with its reason, as `audited` does.
    if (err instanceof HttpError) await recordFailure(db, ctx, entry, err);
    throw err;
  }
  await audited(db, ctx, { ...entry, before }, async (tx) => {
    try {
      await tx.delete(table).where(eq(table.id, target.id));
    } catch (err) {
      if (!isForeignKeyViolation(err)) throw err;
      throw new HttpError(409, `${WHAT[kind]} ${target.name} is still in use`, 'Referenced by another row');
    }
  });
}

/** What an entry keeps of a deleted site, kiosk or group. */
function beforeOf(kind: keyof typeof TABLES, row: unknown): Record<string, unknown> {
  if (kind === 'site') return presentSite(row as Parameters<typeof presentSite>[0]);
  if (kind === 'kiosk') return presentKiosk(row as Parameters<typeof presentKiosk>[0]);
  return presentGroup(row as Parameters<typeof presentGroup>[0], 0);
}
