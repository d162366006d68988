import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { passwordWeakness } from '@fleet/shared/password-policy';
import { accounts } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { hashPassword } from '../../lib/password.ts';

/**
 * On an empty database, creates the superadmin. Answers the generated password when none was
 * configured (the caller prints it once), or undefined when nothing was created. A configured
 * password the policy refuses (password-policy.ts) stops the start with its message.
 */
export async function bootstrapAdmin(
  db: Db,
  opts: { username: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(accounts);
  if (count > 0) return { created: false };
  // The policy of every password set; checked only when it is used, so a deployment whose
  // superadmin already exists still starts with an older ADMIN_PASSWORD.
  const weakness = opts.password ? passwordWeakness(opts.password) : null;
  if (weakness) throw new Error(`Invalid configuration: ADMIN_PASSWORD: ${weakness}`);
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
