import { eq } from 'drizzle-orm';
import { mayChange } from '@fleet/shared/access/rule';
import type { EntityConfig, EntityConfigSet } from '@fleet/shared/schemas/entity-config';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';
import { forbidden, invalidField, notFound } from '../../lib/http-error.ts';
import { isLandlord } from '../account/account-policy.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';

type EntityRow = typeof entities.$inferSelect;

function presentConfig(row: EntityRow): EntityConfig {
  return {
    name: row.name,
    description: row.description,
    networkinfo: row.networkinfo,
    globalinfo: row.globalinfo,
    allocinfo: row.allocinfo,
    unallocinfo: row.unallocinfo,
    devicePath: row.device_path,
    license_tier: row.license_tier as EntityConfig['license_tier'],
  };
}

async function findEntity(db: Db, entity: string) {
  const [row] = await db.select().from(entities).where(eq(entities.name, entity));
  if (!row) throw notFound('Entity');
  return row;
}

/** The entity's config; every account of the entity reads it. */
export async function getEntityConfig(db: Db, entity: string) {
  return presentConfig(await findEntity(db, entity));
}

/**
 * Applies `$set` to the entity config: the landlord, or an admin of the entity with all access.
 * The name is read-only (an unchanged one is dropped, another refused).
 */
export async function updateEntityConfig(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  input: EntityConfigSet,
) {
  if (!mayChange(actor, 'entityConfig') || (!isLandlord(actor) && actor.entity !== entity)) {
    throw forbidden('Only superadmins and entity admins with all access change the entity config');
  }
  const target = await findEntity(db, entity);
  const { name, devicePath, ...set } = input;
  if (name !== undefined && name !== target.name) throw invalidField('name', 'The entity name cannot be changed');
  const values: Partial<typeof entities.$inferInsert> = { ...set };
  if (devicePath !== undefined) values.device_path = devicePath;
  if (Object.keys(values).length === 0) return presentConfig(target);
  const before = presentConfig(target);
  const entry = {
    action: 'entity.update',
    entity: target.name,
    target: { type: 'entity', name: target.name },
  } as const;
  const complete = (after: EntityConfig) => ({ before, after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    const [row] = await tx
      .update(entities)
      .set({ ...values, updated_at: new Date() })
      .where(eq(entities.name, target.name))
      .returning();
    return presentConfig(row!);
  });
}
