import { eq } from 'drizzle-orm';
import type { SiteCreateRequestSchema, SiteUpdateSet } from '@fleet/shared/schemas/site';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { sites } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { nameTaken } from '../org/named-rows.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { findSite, presentSite } from './site-scope.ts';

type Document = z.output<typeof SiteCreateRequestSchema>['document'];

function columns(doc: Partial<Document>) {
  const { address, gps_coordinates, ...rest } = doc;
  return {
    ...rest,
    ...address,
    ...(gps_coordinates ? { latitude: gps_coordinates[0], longitude: gps_coordinates[1] } : {}),
  };
}

/** Creates a site of the entity. */
export async function createSite(db: Db, ctx: AuditContext, actor: AccessClaims, entity: string, doc: Document) {
  assertMayWrite(actor, 'Site');
  const entry = { action: 'site.create', entity, target: { type: 'site', name: doc.name } } as const;
  const complete = (after: ReturnType<typeof presentSite>) => ({ after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
        .insert(sites)
        .values({
          ...columns(doc),
          entity,
          name: doc.name,
          latitude: doc.gps_coordinates[0],
          longitude: doc.gps_coordinates[1],
        })
        .returning();
      return presentSite(row!);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken('Site', 'document.name');
      // The landlord may name any entity in the path; one that does not exist is not found (as device create).
      if (isForeignKeyViolation(err)) throw notFound('Entity');
      throw err;
    }
  });
}

/** Applies `$set` to a site; an unchanged name is dropped. A rename follows into kiosks and groups. */
export async function updateSite(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  set: SiteUpdateSet,
) {
  assertMayWrite(actor, 'Site');
  const target = await findSite(db, entity, name);
  if (set.name === target.name) delete set.name;
  const values = columns(set);
  if (Object.keys(values).length === 0) return presentSite(target);
  const before = presentSite(target);
  const entry = { action: 'site.update', entity, target: { type: 'site', name: target.name } } as const;
  const complete = (after: typeof before) => ({ before, after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
        .update(sites)
        .set({ ...values, updated_at: new Date() })
        .where(eq(sites.id, target.id))
        .returning();
      return presentSite(row!);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken('Site', 'name');
      throw err;
    }
  });
}
