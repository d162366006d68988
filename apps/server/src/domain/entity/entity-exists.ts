import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';

/** Whether an entity of this name exists (a live connection of a landlord follows one). */
export async function entityExists(db: Executor, name: string): Promise<boolean> {
  const [found] = await db.select({ name: entities.name }).from(entities).where(eq(entities.name, name));
  return found !== undefined;
}
