import { StatusSchema } from '@fleet/shared/schemas/list';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { entityKeys } from './get-entities.ts';

/** DELETE tenant/{name}; resolves with the server's status text. */
export async function deleteEntity(name: string): Promise<string> {
  const answer = await api.delete(`tenant/${encodeURIComponent(name)}`, {
    parse: (data) => StatusSchema.safeParse(data).data,
  });
  return answer?.status ?? '';
}

/** Deletes an entity and refreshes the entity list. */
export function useDeleteEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEntity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: entityKeys.all }),
  });
}
