import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SsoProviderResponseSchema, type SsoProviderRequest } from '@fleet/shared/schemas/sso';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

const path = (entity: string) => tenantPath(entity, 'sso');
const key = (entity: string) => ['sso-provider', entity] as const;
const parse = (d: unknown) => SsoProviderResponseSchema.parse(d).data;

/** GET tenant/{entity}/sso (superadmin): the entity's identity provider, null when none; never its secret. */
export function useSsoProvider(entity: string) {
  return useQuery({
    queryKey: key(entity),
    enabled: entity !== '',
    queryFn: ({ signal }) => api.get(path(entity), { signal, parse }),
  });
}

/** PUT (a missing secret keeps the stored one) and DELETE of the entity's provider. */
export function useSsoProviderChanges(entity: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: key(entity) });
  const save = useMutation({
    mutationFn: (body: SsoProviderRequest) => api.put(path(entity), body, { notify: false, parse }),
    onSuccess,
  });
  const remove = useMutation({ mutationFn: () => api.delete(path(entity)), onSuccess });
  return { save, remove };
}
