import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertPageSchema, type AlertListQuery } from '@fleet/shared/schemas/alert';
import { api } from '@/lib/api/api.ts';

/** How often lists re-read while open: the count in the header is live, the rows need not be. */
const ALERTS_REFRESH_MS = 30_000;

export const alertKeys = {
  all: ['alerts'] as const,
  list: (query: Partial<AlertListQuery>, landlord = false) => [...alertKeys.all, 'list', landlord, query] as const,
};

/**
 * The active entity's alerts (`tenant/{entity}/alerts`), newest raised first; every entity's
 * (`alerts`, `entity` narrowing them) for the superadmin's view.
 */
export function useAlerts(query: Partial<AlertListQuery>, landlord = false) {
  return useQuery({
    queryKey: alertKeys.list(query, landlord),
    queryFn: ({ signal }) =>
      api.get(landlord ? 'alerts' : api.tenant('alerts'), {
        query: { ...query },
        signal,
        notify: false,
        parse: (data) => AlertPageSchema.parse(data),
      }),
    placeholderData: keepPreviousData,
    refetchInterval: ALERTS_REFRESH_MS,
  });
}

/** Acknowledges or clears an alert; every alert list re-reads after. */
export function useAlertChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: 'acknowledge' | 'clear' }) =>
      api.post(api.tenant(`alerts/${id}/${change}`)),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
