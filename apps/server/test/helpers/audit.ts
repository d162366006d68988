import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/raw-sql.ts';
import type { TestServer } from './server.ts';

/** Every stored audit entry, oldest first, as the database holds it. */
export async function allEntries(s: TestServer): Promise<any[]> {
  return rowsOf<any>(await s.app.db.execute(sql`select * from audit_entries order by id`));
}

/** The stored entries of one action, oldest first. */
export async function entriesOf(s: TestServer, action: string): Promise<any[]> {
  return (await allEntries(s)).filter((e) => e.action === action);
}

/** Fails naming the entry when any stored entry holds one of `secrets`, in any column. */
export async function assertNoSecrets(s: TestServer, secrets: string[]): Promise<number> {
  const rows = await allEntries(s);
  for (const row of rows) {
    const text = JSON.stringify(row);
    for (const secret of secrets) {
      if (secret && text.includes(secret)) throw new Error(`entry ${row.id} (${row.action}) holds a secret: ${text}`);
    }
  }
  return rows.length;
}
