import {
  SavedViewSchema,
  SelectionSchema,
  type SavedViewCreate,
  type Selection,
} from '@fleet/shared/schemas/device-view';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { SelectionChoicesSchema } from '@fleet/shared/schemas/selection-actions';
import { api } from '@/lib/api/api.ts';
import { notifySuccess } from '@/lib/notify.ts';

/** `device-view` and `device-selection`: the landlord's own (plain path) or the active entity's. */
const scoped = (landlord: boolean, path: string) => (landlord ? path : api.tenant(path));
const ViewList = z.object({ data: z.array(SavedViewSchema), total: z.number() });
const OneSelection = z.object({ data: SelectionSchema });
const viewKeys = (landlord: boolean) => ['device-views', landlord ? 'landlord' : 'entity'] as const;

/** The caller's saved views and the shared ones of the scope. */
export function useSavedViews(landlord: boolean) {
  return useQuery({
    queryKey: viewKeys(landlord),
    queryFn: ({ signal }) => api.get(scoped(landlord, 'device-view'), { signal, parse: (d) => ViewList.parse(d).data }),
    staleTime: 30_000,
  });
}

/** Saves the list's current filters and sort under a name; says 'View saved'. */
export function useSaveView(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (view: SavedViewCreate) =>
      api.post(scoped(landlord, 'device-view'), view, {
        parse: (d) => z.object({ data: SavedViewSchema }).parse(d).data,
      }),
    onSuccess: () => {
      notifySuccess('View saved');
      return queryClient.invalidateQueries({ queryKey: viewKeys(landlord) });
    },
  });
}

/** Deletes one of the caller's views. */
export function useDeleteView(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(scoped(landlord, `device-view/${id}`)),
    onSuccess: () => {
      notifySuccess('View deleted');
      return queryClient.invalidateQueries({ queryKey: viewKeys(landlord) });
    },
  });
}

/** The dry run of "select all matching": the filter's devices fixed and counted by the server. */
export const countMatching = (landlord: boolean, query: string): Promise<Selection> =>
  api.post(scoped(landlord, 'device-selection'), { query }, { parse: (d) => OneSelection.parse(d).data });

/** Starts the action on exactly the counted set; answers at once, the progress follows. */
export const actOnSelection = (
  landlord: boolean,
  id: string,
  action: 'command' | 'delete' | 'firmware' | 'group' | 'provision',
  body?: unknown,
) => api.post(scoped(landlord, `device-selection/${id}/${action}`), body, { parse: (d) => OneSelection.parse(d).data });

/** The dry run of an action that needs a choice (the firmware, the group): its breakdown of the set. */
export const planOnSelection = <T>(
  landlord: boolean,
  id: string,
  action: 'firmware' | 'group' | 'provision',
  body: unknown,
  plan: z.ZodType<T>,
) =>
  api.post(scoped(landlord, `device-selection/${id}/${action}/plan`), body, {
    parse: (d) => z.object({ data: plan }).parse(d).data,
  });

/** What the selection's firmware and group actions may name (its entities' firmware of every level, groups). */
export function useSelectionChoices(landlord: boolean, id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['device-selection', id, 'choices'],
    queryFn: ({ signal }) =>
      api.get(scoped(landlord, `device-selection/${id}/choices`), {
        signal,
        parse: (d) => z.object({ data: SelectionChoicesSchema }).parse(d).data,
      }),
    enabled,
  });
}

/** A running selection's progress, read every second until it is done. */
export function useSelectionProgress(landlord: boolean, id: string | null) {
  return useQuery({
    queryKey: ['device-selection', id],
    queryFn: ({ signal }) =>
      api.get(scoped(landlord, `device-selection/${id}`), { signal, parse: (d) => OneSelection.parse(d).data }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.state === 'done' ? false : 1_000),
  });
}
