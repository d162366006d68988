import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';
import { invalidField } from '../../lib/http-error.ts';

/** Whether an entity of this name exists (a landlord's path and live connection name one). */
export async function entityExists(db: Executor, name: string): Promise<boolean> {
  const [found] = await db.select({ name: entities.name }).from(entities).where(eq(entities.name, name));
  return found !== undefined;
}

/** Throws a 400 on `field` ('Unknown entity') unless the entity a body names exists. */
export async function assertKnownEntity(db: Executor, name: string, field: string): Promise<void> {
  if (!(await entityExists(db, name))) throw invalidField(field, 'Unknown entity');
}
