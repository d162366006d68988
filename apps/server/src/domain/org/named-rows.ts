import { and, asc, count, eq } from 'drizzle-orm';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { Executor } from '../../db/client.ts';
import type { groups, kiosks, sites } from '../../db/schema.ts';
import { HttpError, invalidField, notFound } from '../../lib/http-error.ts';

/** What sites, kiosks and groups have in common: named rows of one entity. */
type NamedTable = typeof sites | typeof kiosks | typeof groups;

/** The row named in the entity, or 404: another entity's row is answered as a missing one. */
export async function findNamed<T extends NamedTable>(
  db: Executor,
  table: T,
  entity: string,
  name: string,
  what: string,
): Promise<T['$inferSelect']> {
  const [row] = await db
    .select()
    .from(table as NamedTable)
    .where(and(eq(table.entity, entity), eq(table.name, name)))
    .limit(1);
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}

/** One page of the entity's rows by name (limit 0: all). */
export async function listNamed<T extends NamedTable>(db: Executor, table: T, entity: string, page: PageQuery) {
  const where = eq(table.entity, entity);
  const query = db
    .select()
    .from(table as NamedTable)
    .where(where)
    .orderBy(asc(table.name))
    .offset(page.offset);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    page.limit > 0 ? query.limit(page.limit) : query,
    db
      .select({ total: count() })
      .from(table as NamedTable)
      .where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total };
}

/** A name already taken in the entity, reported on the name field. */
export const nameTaken = (what: string, field: string) => {
  const message = `A ${what.toLowerCase()} with this name already exists`;
  return new HttpError(409, message, `${what} name taken`, { [field]: [message] });
};

/** A reference to a site or kiosk the entity does not have. */
export async function assertReferenceExists(
  db: Executor,
  table: typeof sites | typeof kiosks,
  entity: string,
  name: string | null | undefined,
  field: string,
  what: string,
): Promise<void> {
  if (!name) return;
  const [row] = await db
    .select({ name: table.name })
    .from(table as typeof sites)
    .where(and(eq(table.entity, entity), eq(table.name, name)))
    .limit(1);
  if (!row) throw invalidField(field, `No ${what.toLowerCase()} named ${name}`);
}

/**
 * Refuses to delete what others still refer to, naming them (docs/decisions.md: a delete never
 * leaves a dangling reference, and never detaches silently).
 */
export function assertUnused(what: string, name: string, users: Record<string, string[]>): void {
  const used = Object.entries(users).filter(([, names]) => names.length > 0);
  if (used.length === 0) return;
  const list = used
    .map(
      ([kind, names]) =>
        `${kind} ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`,
    )
    .join('; ');
  throw new HttpError(
    409,
    `${what} ${name} is still used by ${list}. Change or delete them first.`,
    `${what} in use`,
    Object.fromEntries(used),
  );
}
