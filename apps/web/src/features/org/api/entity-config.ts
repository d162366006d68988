import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { EntityConfigSchema, type EntityConfigSet } from '@fleet/shared/schemas/entity-config';
import { statusWith } from '@fleet/shared/schemas/list';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

const path = (entity: string) => tenantPath(entity, 'config');
const keys = { one: (entity: string) => ['entity-config', entity] as const };

/** GET tenant/{entity}/config (fleet §7); a 404 is left to the screen, which goes back. */
export function useEntityConfig(entity: string) {
  return useQuery({
    queryKey: keys.one(entity),
    enabled: entity !== '',
    retry: false,
    queryFn: async ({ signal }) =>
      (
        await api.get(path(entity), {
          signal,
          notify: false,
          parse: (d) => z.object({ data: EntityConfigSchema }).parse(d),
        })
      ).data,
  });
}

/** PUT tenant/{entity}/config `{operator: {$set}}`. */
export function useSaveEntityConfig(entity: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: EntityConfigSet | Record<string, unknown>) =>
      api.put(path(entity), { operator: { $set: set } }, { parse: (d) => statusWith(EntityConfigSchema).parse(d) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.one(entity) }),
  });
}
