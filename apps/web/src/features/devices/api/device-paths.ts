import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

/**
 * Where device calls go (core §7): the landlord's plain `device` path covers every entity;
 * everyone else uses `tenant/{entity}/device` for the active entity.
 */
export function devicesPath(landlord: boolean): string {
  return landlord ? 'device' : api.tenant('device');
}

/** One device's path under the same rule, the name URL-encoded. */
export function devicePath(landlord: boolean, name: string): string {
  return `${devicesPath(landlord)}/${encodeURIComponent(name)}`;
}

/**
 * Where "delete all" goes: the landlord with an entity chosen clears only that entity
 * (`tenant/{entity}/device/all`); otherwise the scope of the list.
 */
export function deleteAllPath(landlord: boolean, entity: string): string {
  return landlord && entity !== '' ? tenantPath(entity, 'device/all') : `${devicesPath(landlord)}/all`;
}

/** Query keys of the device cache; invalidate `deviceKeys.all` after any change. */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (path: string, query: Record<string, string | number>) => [...deviceKeys.all, 'list', path, query] as const,
  facets: (path: string) => [...deviceKeys.all, 'facets', path] as const,
  detail: (path: string) => [...deviceKeys.all, 'detail', path] as const,
};
