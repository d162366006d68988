import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { dataviews } from '../../db/schema.ts';
import { assertMayChangeDataviews } from './dataview-policy.ts';
import { findDataview } from './dataview-scope.ts';

/** Deletes one dataview of the entity; its authorised-account rows go with it. */
export async function deleteDataview(db: Db, actor: AccessClaims, entity: string, name: string): Promise<void> {
  assertMayChangeDataviews(actor);
  const target = await findDataview(db, actor, entity, name);
  await db.delete(dataviews).where(eq(dataviews.id, target.id));
}
