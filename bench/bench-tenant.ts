// The tenant the server benchmarks sign in to: entity `bench` (and any others named) with the
// entity admin `bench_admin`, whose password is bench/lib.mjs's ADMIN.password.
import type { Db } from '../apps/server/src/db/client.ts';

export const BENCH_PASSWORD = 'bench-password-1';

/** Creates the entities and `bench_admin` unless a previous run on the same database did. */
export async function seedBenchTenant(db: Db, entityNames: string[] = ['bench']): Promise<void> {
  const { hashPassword } = await import('../apps/server/src/lib/password.ts');
  const { accounts, entities } = await import('../apps/server/src/db/schema.ts');
  await db
    .insert(entities)
    .values(entityNames.map((name) => ({ name })))
    .onConflictDoNothing();
  await db
    .insert(accounts)
    .values({
      name: 'bench_admin',
      email: 'b@x.test',
      password_hash: await hashPassword(BENCH_PASSWORD),
      subtype: 'admin',
      entity: 'bench',
      access: ['all'],
    })
    .onConflictDoNothing();
}
