import type { EntityCreateRequest } from '@fleet/shared/schemas/entity';
import { EntitySchema } from '@fleet/shared/schemas/entity';
import { statusWith } from '@fleet/shared/schemas/list';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { entityKeys } from './get-entities.ts';

const CreatedSchema = statusWith(EntitySchema);

export interface NewEntity {
  name: string;
  description: string;
}

/** The body core §7 fixes: `{document: {name: {name, description}}}` (license tier left to the server's basic). */
export function entityCreateBody(entity: NewEntity): EntityCreateRequest {
  return { document: { name: { name: entity.name.trim(), description: entity.description.trim() } } };
}

/** POST tenant; resolves with the server's status text and the new entity. */
export function createEntity(entity: NewEntity) {
  return api.post('tenant', entityCreateBody(entity), { parse: (data) => CreatedSchema.parse(data) });
}

/** Creates an entity and refreshes the entity list. */
export function useCreateEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEntity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: entityKeys.all }),
  });
}
