import { BEACON_HISTORY_LIMIT, BEACON_HISTORY_REFRESH_MS, BEACON_MESSAGES } from '@fleet/shared/beacon-constants';
import { BeaconConfigListSchema, BeaconEventListSchema, type Medication } from '@fleet/shared/schemas/beacon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { ApiError } from '@/lib/api/api-error.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';

/** Query keys of the beacon screen; invalidate `beaconKeys.all` after a change. */
export const beaconKeys = {
  all: ['beacons'] as const,
  events: () => [...beaconKeys.all, 'events', api.tenant('beacon-events')] as const,
  configs: () => [...beaconKeys.all, 'configs', api.tenant('beacon-configs')] as const,
};

/** GET beacon-events?limit=100 (fleet §7), every 10 s: the history and the stats cards' figures. */
export function useBeaconEvents() {
  return useQuery({
    queryKey: beaconKeys.events(),
    queryFn: ({ signal }) =>
      api.get(api.tenant('beacon-events'), {
        query: { limit: BEACON_HISTORY_LIMIT },
        signal,
        parse: (d) => BeaconEventListSchema.parse(d).data,
      }),
    refetchInterval: BEACON_HISTORY_REFRESH_MS,
  });
}

/** GET beacon-configs (`data.data.beacons`); a failure says 'Failed to load beacon configurations'. */
export function useBeaconConfigs(enabled = true) {
  return useQuery({
    queryKey: beaconKeys.configs(),
    enabled,
    queryFn: async ({ signal }) => {
      try {
        return await api.get(api.tenant('beacon-configs'), {
          signal,
          notify: false,
          parse: (d) => BeaconConfigListSchema.parse(d).data.beacons,
        });
      } catch (err) {
        if (!signal.aborted) notifyError(BEACON_MESSAGES.loadFailed);
        throw err;
      }
    },
  });
}

/** What the form sends: every field on add; the same without the (immutable) MAC on edit. */
export interface BeaconFormBody {
  beacon_mac?: string;
  patient_name: string;
  room_number: string | null;
  medications: Medication[];
  rssi_threshold: number;
  active: boolean;
  notes: string;
}

/** The server's userMessage, or the spec's fallback (fleet §8). */
const saveFailure = (err: unknown) =>
  err instanceof ApiError && err.status > 0 ? err.userMessage : BEACON_MESSAGES.saveFailed;

/** POST beacon-configs with the form, or PUT beacon-configs/{id}; notices as fleet §8 says. */
export function useSaveBeaconConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id?: string | undefined; form: BeaconFormBody }) =>
      id
        ? api.put(api.tenant(`beacon-configs/${encodeURIComponent(id)}`), form, { notify: false })
        : api.post(api.tenant('beacon-configs'), form, { notify: false }),
    onSuccess: (_answer, { id }) => {
      notifySuccess(id ? BEACON_MESSAGES.updated : BEACON_MESSAGES.created);
      return queryClient.invalidateQueries({ queryKey: beaconKeys.all });
    },
    onError: (err) => notifyError(saveFailure(err)),
  });
}

/** DELETE beacon-configs/{id}; 'Beacon configuration deleted' or 'Failed to delete beacon configuration'. */
export function useDeleteBeaconConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(api.tenant(`beacon-configs/${encodeURIComponent(id)}`), { notify: false }),
    onSuccess: () => {
      notifySuccess(BEACON_MESSAGES.deleted);
      return queryClient.invalidateQueries({ queryKey: beaconKeys.all });
    },
    onError: () => notifyError(BEACON_MESSAGES.deleteFailed),
  });
}
