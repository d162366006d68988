import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

/**
 * The calls of one named resource of an entity (fleet §7: "GET, POST, PUT and DELETE by name"):
 * sites, kiosks, groups. `entity` defaults to the active one; the landlord's device form names
 * the device's own.
 */
export function namedResource<T extends { name: string }>(segment: string, item: z.ZodType<T>) {
  const ListSchema = listOf(item);
  const OneSchema = z.object({ data: item });
  const SavedSchema = statusWith(item);
  const path = (entity?: string, name?: string) => {
    const tail = name === undefined ? segment : `${segment}/${encodeURIComponent(name)}`;
    return entity ? tenantPath(entity, tail) : api.tenant(tail);
  };
  const keys = {
    all: [segment] as const,
    list: (entity?: string) => [segment, 'list', entity ?? ''] as const,
    one: (name: string) => [segment, 'one', name] as const,
  };

  return {
    keys,
    /** Every one of the entity's, by name. */
    useList(options: { entity?: string; enabled?: boolean; notify?: boolean } = {}) {
      return useQuery({
        queryKey: keys.list(options.entity),
        enabled: options.enabled ?? true,
        queryFn: async ({ signal }) =>
          (
            await api.get(path(options.entity), {
              query: { limit: 0 },
              signal,
              notify: options.notify ?? true,
              parse: (d) => ListSchema.parse(d),
            })
          ).data,
      });
    },
    /** One by name; a 404 is left to the screen (it goes back) without a notice. */
    useOne(name: string) {
      return useQuery({
        queryKey: keys.one(name),
        enabled: name !== '',
        retry: false,
        queryFn: async ({ signal }) =>
          (await api.get(path(undefined, name), { signal, notify: false, parse: (d) => OneSchema.parse(d) })).data,
      });
    },
    useCreate() {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: (document: Record<string, unknown>) =>
          api.post(path(), { document }, { parse: (d) => SavedSchema.parse(d) }),
        onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
      });
    },
    useUpdate(name: string) {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: (set: Record<string, unknown>) =>
          api.put(path(undefined, name), { operator: { $set: set } }, { parse: (d) => SavedSchema.parse(d) }),
        // A renamed object's old name is gone: refetching it would only 404.
        onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all, refetchType: 'none' }),
      });
    },
    useDelete() {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: async (name: string) =>
          (await api.delete(path(undefined, name), { parse: (d) => StatusSchema.safeParse(d).data }))?.status ?? '',
        onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
      });
    },
  };
}
