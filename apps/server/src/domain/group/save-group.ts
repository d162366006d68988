import { eq } from 'drizzle-orm';
import type { GroupCreateRequestSchema, GroupUpdateSet } from '@fleet/shared/schemas/group';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { groups } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { invalidField, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { assertPlacesExist, locationColumns } from '../org/location.ts';
import { nameTaken } from '../org/named-rows.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { findGroup, presentGroup } from './group-scope.ts';

type Document = z.output<typeof GroupCreateRequestSchema>['document'];

function columns(doc: Partial<Document>) {
  const { location, state, X509_certificate, ...rest } = doc;
  return {
    ...rest,
    ...(location ? locationColumns(location) : {}),
    ...(state ? { state_current: state.current } : {}),
    ...(X509_certificate !== undefined ? { x509_certificate: X509_certificate } : {}),
  };
}

/** Creates a group (dispenser) of the entity. */
export async function createGroup(db: Db, ctx: AuditContext, actor: AccessClaims, entity: string, doc: Document) {
  assertMayWrite(actor, 'Group');
  const values = { ...columns(doc), entity, name: doc.name };
  await assertPlacesExist(db, entity, 'document.', { site: values.site, kiosk: values.kiosk });
  const entry = { action: 'group.create', entity, target: { type: 'group', name: doc.name } } as const;
  const complete = (after: ReturnType<typeof presentGroup>) => ({ after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx.insert(groups).values(values).returning();
      return presentGroup(row!, 0);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken('Group', 'document.name');
      // The landlord may name any entity in the path; one that does not exist is not found (as device create).
      if (isForeignKeyViolation(err)) throw notFound('Entity');
      throw err;
    }
  });
}

/**
 * Applies `$set` to a group; `location` replaces the whole location. A rename follows into its
 * devices' `group` and `last_dispenser`. The capacity cannot drop below the devices it holds.
 */
export async function updateGroup(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  set: GroupUpdateSet,
) {
  assertMayWrite(actor, 'Group');
  const { row: target, devices } = await findGroup(db, entity, name);
  if (set.name === target.name) delete set.name;
  const values = columns(set);
  if (Object.keys(values).length === 0) return presentGroup(target, devices);
  if (values.capacity != null && values.capacity < devices) {
    throw invalidField('capacity', `The group holds ${devices} devices; its capacity cannot be lower`);
  }
  await assertPlacesExist(db, entity, '', { site: values.site, kiosk: values.kiosk });
  const before = presentGroup(target, devices);
  const entry = { action: 'group.update', entity, target: { type: 'group', name: target.name } } as const;
  const complete = (after: typeof before) => ({ before, after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
        .update(groups)
        .set({ ...values, updated_at: new Date() })
        .where(eq(groups.id, target.id))
        .returning();
      return presentGroup(row!, devices);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken('Group', 'name');
      throw err;
    }
  });
}
