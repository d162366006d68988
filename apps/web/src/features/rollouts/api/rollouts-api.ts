import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { statusWith } from '@fleet/shared/schemas/list';
import {
  RolloutDeviceSchema,
  RolloutDryRunSchema,
  RolloutSchema,
  type RolloutAction,
  type RolloutCreate,
  type RolloutDeviceState,
} from '@fleet/shared/schemas/rollout';
import { z } from 'zod';
import { api } from '@/lib/api/api.ts';

export const rolloutKeys = {
  all: ['rollouts'] as const,
  list: () => [...rolloutKeys.all, 'list'] as const,
  one: (id: string) => [...rolloutKeys.all, 'one', id] as const,
  devices: (id: string, query: RolloutDevicesFilter) => [...rolloutKeys.all, 'devices', id, query] as const,
};

export interface RolloutDevicesFilter {
  state?: RolloutDeviceState;
  search?: string;
  limit: number;
  offset: number;
}

const ListAnswer = statusWith(z.array(RolloutSchema));
const OneAnswer = statusWith(RolloutSchema);
const DevicesAnswer = z.object({ data: z.array(RolloutDeviceSchema), total: z.number() });

/** The active entity's rollouts, newest first (`tenant/{entity}/rollouts`); live through useRolloutEvents. */
export function useRollouts() {
  return useQuery({
    queryKey: rolloutKeys.list(),
    queryFn: ({ signal }) =>
      api.get(api.tenant('rollouts'), { signal, notify: false, parse: (d) => ListAnswer.parse(d).data }),
  });
}

/** One rollout with its counts per stage. */
export function useRollout(id: string) {
  return useQuery({
    queryKey: rolloutKeys.one(id),
    queryFn: ({ signal }) =>
      api.get(api.tenant(`rollouts/${encodeURIComponent(id)}`), {
        signal,
        notify: false,
        parse: (d) => OneAnswer.parse(d).data,
      }),
  });
}

/** A rollout's device results (each device's current attempt), filtered by result or name. */
export function useRolloutDevices(id: string, filter: RolloutDevicesFilter) {
  return useQuery({
    queryKey: rolloutKeys.devices(id, filter),
    queryFn: ({ signal }) =>
      api.get(api.tenant(`rollouts/${encodeURIComponent(id)}/devices`), {
        query: { ...filter },
        signal,
        notify: false,
        parse: (d) => DevicesAnswer.parse(d),
      }),
    placeholderData: keepPreviousData,
  });
}

/** Start, pause, resume, approve, cancel or retry; the server's notice says what happened. */
export function useRolloutAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: RolloutAction) =>
      api.post(api.tenant(`rollouts/${encodeURIComponent(id)}/${action}`), {}, { parse: (d) => OneAnswer.parse(d) }),
    onSuccess: (answer) => client.setQueryData(rolloutKeys.one(id), answer.data),
    onSettled: () => client.invalidateQueries({ queryKey: rolloutKeys.all }),
  });
}

/** How many devices a rollout would reach now, and each stage's size. */
export const dryRunRollout = (body: Omit<RolloutCreate, 'name'>, signal?: AbortSignal) =>
  api.post(api.tenant('rollouts/dry-run'), body, {
    signal,
    notify: false,
    parse: (d) => statusWith(RolloutDryRunSchema).parse(d).data,
  });

/** Creates a draft; the caller starts it. Per-field errors come back as an ApiError's details. */
export const createRollout = (body: RolloutCreate) =>
  api.post(api.tenant('rollouts'), body, { notify: false, parse: (d) => OneAnswer.parse(d).data });
