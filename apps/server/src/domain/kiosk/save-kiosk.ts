import { eq } from 'drizzle-orm';
import { MESSAGES } from '@fleet/shared/validation';
import type { KioskCreateRequestSchema, KioskUpdateSet } from '@fleet/shared/schemas/kiosk';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { kiosks } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { invalidField, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { assertPlacesExist, locationColumns } from '../org/location.ts';
import { nameTaken } from '../org/named-rows.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { findKiosk, presentKiosk } from './kiosk-scope.ts';

type Document = z.output<typeof KioskCreateRequestSchema>['document'];

function columns(doc: Partial<Document>) {
  const { location, state, ...rest } = doc;
  return {
    ...rest,
    ...(location ? locationColumns(location) : {}),
    ...(state ? { state_current: state.current } : {}),
  };
}

/** Fleet §5: a kiosk without a site needs coordinates. */
function assertPlaced(row: { site: string | null; latitude: number | null }, prefix: string) {
  if (row.site === null && row.latitude === null) {
    throw invalidField(`${prefix}location.gps_coordinates`, MESSAGES.required);
  }
}

/** Creates a kiosk of the entity. */
export async function createKiosk(db: Db, ctx: AuditContext, actor: AccessClaims, entity: string, doc: Document) {
  assertMayWrite(actor, 'Site');
  const values = { ...columns(doc), entity, name: doc.name };
  assertPlaced({ site: values.site ?? null, latitude: values.latitude ?? null }, 'document.');
  await assertPlacesExist(db, entity, 'document.', { site: values.site });
  const entry = { action: 'kiosk.create', entity, target: { type: 'kiosk', name: doc.name } } as const;
  const complete = (after: ReturnType<typeof presentKiosk>) => ({ after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx.insert(kiosks).values(values).returning();
      return presentKiosk(row!);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken('Kiosk', 'document.name');
      // The landlord may name any entity in the path; one that does not exist is not found (as device create).
      if (isForeignKeyViolation(err)) throw notFound('Entity');
      throw err;
    }
  });
}

/** Applies `$set` to a kiosk; `location` replaces the whole location. A rename follows into groups. */
export async function updateKiosk(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  set: KioskUpdateSet,
) {
  assertMayWrite(actor, 'Site');
  const target = await findKiosk(db, entity, name);
  if (set.name === target.name) delete set.name;
  const values = columns(set);
  if (Object.keys(values).length === 0) return presentKiosk(target);
  assertPlaced({ ...target, ...values }, '');
  await assertPlacesExist(db, entity, '', { site: values.site });
  const before = presentKiosk(target);
  const entry = { action: 'kiosk.update', entity, target: { type: 'kiosk', name: target.name } } as const;
  const complete = (after: typeof before) => ({ before, after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
        .update(kiosks)
        .set({ ...values, updated_at: new Date() })
        .where(eq(kiosks.id, target.id))
        .returning();
      return presentKiosk(row!);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken('Kiosk', 'name');
      throw err;
    }
  });
}
