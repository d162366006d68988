import { EntitySchema, type Entity } from '@fleet/shared/schemas/entity';
import { listOf } from '@fleet/shared/schemas/list';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error.ts';
import { api } from '@/lib/api/api.ts';
import { notifyError } from '@/lib/notify.ts';

const EntityListSchema = listOf(EntitySchema);

/** Query keys of the entity cache; invalidate `entityKeys.all` after any change. */
export const entityKeys = {
  all: ['entities'] as const,
  list: () => [...entityKeys.all, 'list'] as const,
};

export const LOAD_ENTITIES_ERROR = 'Error loading data';

/** GET tenant?limit=0: every entity (landlord only); a failure says 'Error loading data' (core §8). */
export async function getEntities(signal?: AbortSignal): Promise<Entity[]> {
  try {
    const answer = await api.get('tenant', {
      query: { limit: 0 },
      signal,
      notify: false,
      parse: (data) => EntityListSchema.parse(data),
    });
    return answer.data;
  } catch (error) {
    // A failed refresh has already signed out with its own notice.
    const signedOut = error instanceof ApiError && error.status === 401;
    if (!signal?.aborted && !signedOut) {
      notifyError(LOAD_ENTITIES_ERROR, error instanceof ApiError ? error.userMessage : undefined);
    }
    throw error;
  }
}

/** The landlord's entity list, cached. */
export function useEntities() {
  return useQuery({ queryKey: entityKeys.list(), queryFn: ({ signal }) => getEntities(signal) });
}
