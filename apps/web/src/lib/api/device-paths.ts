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

/**
 * Where a device's commands go (core §7): `tenant/{entity}/mqtt/general/{device}` for the
 * device's own entity, which also serves the landlord, whose list spans entities.
 */
export function commandPath(entity: string, device: string): string {
  return tenantPath(entity, `mqtt/general/${encodeURIComponent(device)}`);
}

/** `tenant/{entity}/mqtt/dfu/{device}` and `…/mqtt/dfu/devices`: firmware updates (core §7). */
export function firmwareUpdatePath(entity: string, device: string | null): string {
  return tenantPath(entity, `mqtt/dfu/${device === null ? 'devices' : encodeURIComponent(device)}`);
}

/** `tenant/{entity}/mqtt/general/devices`: one command to chosen devices of the entity. */
export function bulkCommandPath(entity: string): string {
  return tenantPath(entity, 'mqtt/general/devices');
}

/** `tenant/{entity}/mqtt/general/entity`: one command to every device of the entity. */
export function entityCommandPath(entity: string): string {
  return tenantPath(entity, 'mqtt/general/entity');
}

/** `tenant/{entity}/device/{name}/commands`: the device's command history, newest first. */
export function commandHistoryPath(entity: string, device: string): string {
  return tenantPath(entity, `device/${encodeURIComponent(device)}/commands`);
}

/** Query keys of the device cache; invalidate `deviceKeys.all` after any change. */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (path: string, query: Record<string, string | number | readonly string[]>) =>
    [...deviceKeys.all, 'list', path, query] as const,
  facets: (path: string) => [...deviceKeys.all, 'facets', path] as const,
  detail: (path: string) => [...deviceKeys.all, 'detail', path] as const,
  commands: (path: string) => [...deviceKeys.all, 'commands', path] as const,
};
