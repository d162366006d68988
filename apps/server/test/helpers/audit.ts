import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/raw-sql.ts';
import type { TestServer } from './server.ts';

/**
 * The entries a file may read on its worker's shared server (helpers/shared-server.ts): those of
 * its own `entities`, and the landlord-level ones (no entity) done by one of its own `actors` (an
 * account, or a token acting for it) or about one of its own `targets`. Without a scope a helper
 * reads every entry: only for a file on a server of its own.
 */
export interface AuditScope {
  entities: readonly string[];
  actors?: readonly string[];
  targets?: readonly string[];
}

const inScope = (e: any, scope: AuditScope) =>
  e.entity === null
    ? [e.actor_name, e.actor_account].some((n) => n !== null && scope.actors?.includes(n)) ||
      (e.target_name !== null && Boolean(scope.targets?.includes(e.target_name)))
    : scope.entities.includes(e.entity);

/** Every stored audit entry (of `scope`, when given), oldest first, as the database holds it. */
export async function allEntries(s: TestServer, scope?: AuditScope): Promise<any[]> {
  const rows = rowsOf<any>(await s.app.db.execute(sql`select * from audit_entries order by id`));
  return scope ? rows.filter((e) => inScope(e, scope)) : rows;
}

/** The stored entries of one action (of `scope`, when given), oldest first. */
export async function entriesOf(s: TestServer, action: string, scope?: AuditScope): Promise<any[]> {
  return (await allEntries(s, scope)).filter((e) => e.action === action);
}

/**
 * Fails naming the entry when any stored entry holds one of `secrets`, in any column: every entry
 * of the server, other files' too on a shared one, so a secret of this file is in none. Answers
 * how many entries of `scope` (all, without one) it read.
 */
export async function assertNoSecrets(s: TestServer, secrets: string[], scope?: AuditScope): Promise<number> {
  const rows = await allEntries(s);
  for (const row of rows) {
    const text = JSON.stringify(row);
    for (const secret of secrets) {
      if (secret && text.includes(secret)) throw new Error(`entry ${row.id} (${row.action}) holds a secret: ${text}`);
    }
  }
  return scope ? rows.filter((e) => inScope(e, scope)).length : rows.length;
}
