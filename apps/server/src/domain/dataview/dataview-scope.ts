import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Dataview, DataviewContent, DataviewWithContent } from '@fleet/shared/schemas/dataview';
import { mayReadAllDataviews } from '@fleet/shared/dataview-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { dataviewAccounts, dataviews } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';

export type DataviewRow = typeof dataviews.$inferSelect;

/** A dataview's authorised account names, sorted, read in the same query as the row. */
export const authorisedNames = sql<string[]>`coalesce((
  select array_agg(${dataviewAccounts.account} order by ${dataviewAccounts.account})
  from ${dataviewAccounts} where ${dataviewAccounts.dataview_id} = ${dataviews.id}
), '{}')`.as('authorized_accounts');

/** The dataviews an actor may see beyond its entity check: all, or only those it owns or is authorised for. */
export function visibleTo(actor: AccessClaims): SQL | undefined {
  if (mayReadAllDataviews(actor)) return undefined;
  return or(
    eq(dataviews.owner, actor.sub),
    sql`exists (select 1 from ${dataviewAccounts} where ${dataviewAccounts.dataview_id} = ${dataviews.id} and ${dataviewAccounts.account} = ${actor.sub})`,
  );
}

/** What lists show of a dataview: everything but its content. */
export function presentDataview(row: Omit<DataviewRow, 'content' | 'id'>, authorized: string[]): Dataview {
  return {
    name: row.name,
    entity: row.entity,
    description: row.description,
    version: row.version,
    owner: row.owner,
    authorized_accounts: authorized,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * The dataview `name` of `entity` as the actor may see it, with its content, or 404: another
 * entity's dataview and one the actor may not read are answered as missing ones.
 */
export async function findDataview(
  db: Executor,
  actor: AccessClaims | null,
  entity: string,
  name: string,
): Promise<DataviewRow & { authorized_accounts: string[] }> {
  const [row] = await db
    .select({
      id: dataviews.id,
      entity: dataviews.entity,
      name: dataviews.name,
      description: dataviews.description,
      version: dataviews.version,
      owner: dataviews.owner,
      content: dataviews.content,
      created_at: dataviews.created_at,
      updated_at: dataviews.updated_at,
      authorized_accounts: authorisedNames,
    })
    .from(dataviews)
    .where(and(eq(dataviews.entity, entity), eq(dataviews.name, name), actor ? visibleTo(actor) : undefined))
    .limit(1);
  if (!row) throw notFound('Dataview');
  return row;
}

export function presentWithContent(row: DataviewRow & { authorized_accounts: string[] }): DataviewWithContent {
  return { ...presentDataview(row, row.authorized_accounts), content: row.content as DataviewContent };
}
