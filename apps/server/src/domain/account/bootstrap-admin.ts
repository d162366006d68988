import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { accounts } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { hashPassword } from '../../lib/password.ts';

/**
 * On an empty database, creates the superadmin. Answers the generated password when none was
 * configured (the caller prints it once), or undefined when nothing was created.
 */
export async function bootstrapAdmin(
  db: Db,
  opts: { username: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(accounts);
  if (count > 0) return { created: false };
  const generatedPassword = opts.password ? undefined : randomBytes(12).toString('base64url');
  const password_hash = await hashPassword(opts.password ?? generatedPassword!);
  // Another instance may bootstrap at the same moment; the unique name lets only one insert land.
  const inserted = await db
    .insert(accounts)
    .values({ name: opts.username, email: '', password_hash, subtype: 'sadmin', entity: null, access: ['all'] })
    .onConflictDoNothing({ target: accounts.name })
    .returning({ name: accounts.name });
  if (inserted.length === 0) return { created: false };
  return generatedPassword ? { created: true, generatedPassword } : { created: true };
}
