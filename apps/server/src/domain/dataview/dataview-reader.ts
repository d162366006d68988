import { and, inArray } from 'drizzle-orm';
import { mayReadAllDataviews } from '@fleet/shared/dataview-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { dataviews } from '../../db/schema.ts';
import { visibleTo } from './dataview-scope.ts';

/** Whether the actor may read the dataview `name` of `entity`. */
export type DataviewReader = (entity: string, name: string) => boolean;

/**
 * Which of the named dataviews the actor may read, by the rule of the dataview routes (fleet §6,
 * `visibleTo`): every one for those who read all of their entity's dataviews; otherwise only
 * existing ones it owns or is authorised for. One query, none for those who read all.
 */
export async function dataviewReader(
  db: Executor,
  actor: AccessClaims,
  wanted: ReadonlyArray<{ entity: string; names: string[] }>,
): Promise<DataviewReader> {
  if (mayReadAllDataviews(actor)) return () => true;
  const names = [...new Set(wanted.flatMap((w) => w.names))];
  if (names.length === 0) return () => false;
  const rows = await db
    .select({ entity: dataviews.entity, name: dataviews.name })
    .from(dataviews)
    .where(
      and(
        inArray(dataviews.entity, [...new Set(wanted.map((w) => w.entity))]),
        inArray(dataviews.name, names),
        visibleTo(actor),
      ),
    );
  const readable = new Map<string, Set<string>>();
  for (const r of rows) readable.set(r.entity, (readable.get(r.entity) ?? new Set()).add(r.name));
  return (entity, name) => readable.get(entity)?.has(name) ?? false;
}

/**
 * Dataview name → content as a reader may see it: the content of a dataview it may not read is
 * withheld (null), its name kept. Stored contents are never null, so null only means withheld.
 */
export function withholdUnreadable(
  entity: string,
  apps: Record<string, unknown>,
  mayRead: DataviewReader,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(apps).map(([name, content]) => [name, mayRead(entity, name) ? content : null]),
  );
}
