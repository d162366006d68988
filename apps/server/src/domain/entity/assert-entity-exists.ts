import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';
import { invalidField } from '../../lib/http-error.ts';

/** Throws a 400 on `field` ('Unknown entity') unless the entity exists. */
export async function assertEntityExists(db: Executor, name: string, field: string): Promise<void> {
  const [found] = await db.select({ name: entities.name }).from(entities).where(eq(entities.name, name));
  if (!found) throw invalidField(field, 'Unknown entity');
}
