import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';

/**
 * The index scans (name and Index Cond) of `query`'s plan with `table`'s non-unique btree indexes
 * dropped and sequential scans off, in a transaction that rolls back (the indexes come back): at
 * a test's size a btree range and a filter cost as little as a search index, so the planner's
 * choice between them says nothing; this shows what the search index is asked.
 */
export async function scansWithoutBtrees(db: Db, table: string, query: { sql: string; params: unknown[] }) {
  let plan = '';
  await db
    .transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(
        sql.raw(`do $$ declare r record; begin
          for r in select c.relname from pg_index i join pg_class c on c.oid = i.indexrelid
              join pg_am a on a.oid = c.relam
            where i.indrelid = '${table}'::regclass and not i.indisunique and a.amname = 'btree' loop
            execute format('drop index %I', r.relname);
          end loop;
        end $$`),
      );
      const inlined = query.params.reduce<string>((t, p, i) => t.replace(`$${i + 1}`, `'${String(p)}'`), query.sql);
      const answer = (await tx.execute(sql.raw(`explain (format json) ${inlined}`))) as { rows: unknown[] };
      plan = JSON.stringify(answer.rows);
      tx.rollback();
    })
    .catch((e: Error) => {
      if (!/rollback/i.test(e.message)) throw e;
    });
  return [...plan.matchAll(/"Index Name":"([^"]*)"[^}]*?"Index Cond":"([^"]*)"/g)].map(([, index, cond]) => ({
    index,
    cond,
  }));
}
