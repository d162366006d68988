import { tenantPath } from '@/lib/api/api-client.ts';

/** `tenant/{entity}/dataview`: an entity's dataviews (the landlord names the entity too). */
export const dataviewsPath = (entity: string) => tenantPath(entity, 'dataview');

/** One dataview's path, the name URL-encoded. */
export const dataviewPath = (entity: string, name: string) => `${dataviewsPath(entity)}/${encodeURIComponent(name)}`;

/** Query keys of the dataview cache; invalidate `dataviewKeys.all` after any change. */
export const dataviewKeys = {
  all: ['dataviews'] as const,
  list: (path: string, query: object) => [...dataviewKeys.all, 'list', path, query] as const,
  facets: () => [...dataviewKeys.all, 'facets'] as const,
  detail: (entity: string, name: string) => [...dataviewKeys.all, 'detail', entity, name] as const,
  accounts: (entity: string) => [...dataviewKeys.all, 'accounts', entity] as const,
};

/** Where the builder of a dataview opens; the landlord's carries the entity. */
export function builderUrl(name: string, entity?: string): string {
  const path = `/appbuilder/${encodeURIComponent(name)}`;
  return entity ? `${path}?entity=${encodeURIComponent(entity)}` : path;
}

/** Where a dataview is edited; the landlord's carries the entity. */
export function editUrl(name: string, entity?: string): string {
  const path = `/dataview/${encodeURIComponent(name)}`;
  return entity ? `${path}?entity=${encodeURIComponent(entity)}` : path;
}
