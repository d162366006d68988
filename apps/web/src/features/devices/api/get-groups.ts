import { useQuery } from '@tanstack/react-query';
import { GroupSchema } from '@fleet/shared/schemas/group';
import { listOf } from '@fleet/shared/schemas/list';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

/**
 * The groups of `entity` for the device form's Groups select (fleet §2), or of the active entity.
 * An account without Group_read gets a 403, which the select says quietly.
 */
export function useGroupChoices(entity: string | undefined, enabled = true) {
  const path = entity ? tenantPath(entity, 'dispenser') : null;
  return useQuery({
    queryKey: ['dispenser', 'choices', entity ?? ''],
    enabled,
    retry: false,
    queryFn: async ({ signal }) =>
      (
        await api.get(path ?? api.tenant('dispenser'), {
          query: { limit: 0 },
          signal,
          notify: false,
          parse: (d) => listOf(GroupSchema).parse(d),
        })
      ).data,
  });
}
