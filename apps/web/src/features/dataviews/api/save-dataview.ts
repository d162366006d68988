import type { DataviewCreateDocument, DataviewUpdateSet } from '@fleet/shared/schemas/dataview';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { dataviewKeys, dataviewPath, dataviewsPath } from './dataview-paths.ts';

export const DATAVIEW_SAVED = 'Dataview saved';
export const DATAVIEW_DELETED = 'Dataview deleted';

/** POST tenant/{entity}/dataview `{document}`; says 'Dataview saved'. Field errors stay with the form. */
export function useCreateDataview(entity: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: DataviewCreateDocument) => api.post(dataviewsPath(entity), { document }, { notify: false }),
    onSuccess: () => {
      notifySuccess(DATAVIEW_SAVED);
      return queryClient.invalidateQueries({ queryKey: dataviewKeys.all });
    },
  });
}

/** PUT tenant/{entity}/dataview/{name} `{operator: {$set}}`; says 'Dataview saved'. */
export function useUpdateDataview(entity: string, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: DataviewUpdateSet) =>
      api.put(dataviewPath(entity, name), { operator: { $set: set } }, { notify: false }),
    onSuccess: (_answer, set) => {
      notifySuccess(DATAVIEW_SAVED);
      const renamed = set.name !== undefined && set.name !== name;
      return queryClient.invalidateQueries({ queryKey: dataviewKeys.all, refetchType: renamed ? 'none' : 'active' });
    },
  });
}

/** DELETE tenant/{entity}/dataview/{name}; says 'Dataview deleted'. */
export function useDeleteDataview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entity, name }: { entity: string; name: string }) => api.delete(dataviewPath(entity, name)),
    onSuccess: () => {
      notifySuccess(DATAVIEW_DELETED);
      return queryClient.invalidateQueries({ queryKey: dataviewKeys.all });
    },
    onError: (error) => console.error('Dataview not deleted:', error),
  });
}
