import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AllocationSchema,
  KioskAnswerSchema,
  type AllocateRequest,
  type KioskAnswer,
  type ReturnRequest,
} from '@fleet/shared/schemas/allocation';
import { listOf } from '@fleet/shared/schemas/list';
import { api } from '@/lib/api/api.ts';
import { tenantPath } from '@/lib/api/api-client.ts';

const ClientConfigSchema = z.object({ kiosk_manager_url: z.string().nullable() });

/** Where the kiosk manager answers: KIOSK_MANAGER_URL as the server reports it, or this origin (''). */
async function kioskManagerBase(): Promise<string> {
  const config = await api.get('client-config', { auth: 'none', parse: (d) => ClientConfigSchema.parse(d) });
  return (config.kiosk_manager_url ?? '').replace(/\/+$/, '');
}

let base: Promise<string> | null = null;
/** The kiosk manager's base, asked once per page load (a failed ask is asked again). */
function kioskManager(): Promise<string> {
  base ??= kioskManagerBase().catch((err: unknown) => {
    base = null;
    throw err;
  });
  return base;
}

/** POST {KIOSK_MANAGER_URL}/kiosk-manager/v1/kiosk/{entity}/{kiosk}/{verb}: 200 done, 202 held with a user message. */
async function callKioskManager(verb: 'allocate' | 'return', entity: string, kiosk: string, body: object) {
  const url = `${await kioskManager()}/kiosk-manager/v1/kiosk/${encodeURIComponent(entity)}/${encodeURIComponent(kiosk)}/${verb}`;
  return api.post(url, body, { notify: false, parse: (d) => KioskAnswerSchema.parse(d) });
}

export const allocationKeys = {
  all: ['allocations'] as const,
  device: (entity: string, device: string) => ['allocations', entity, device] as const,
};

/** Allocates the device from `kiosk` (its last dispenser's kiosk). */
export function useAllocate(entity: string, kiosk: string) {
  const queryClient = useQueryClient();
  return useMutation<KioskAnswer, unknown, AllocateRequest>({
    mutationFn: (body) => callKioskManager('allocate', entity, kiosk, body),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: allocationKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}

/** Returns the device to a dispenser of `kiosk`. */
export function useReturn(entity: string) {
  const queryClient = useQueryClient();
  return useMutation<KioskAnswer, unknown, ReturnRequest & { kiosk: string }>({
    mutationFn: ({ kiosk, ...body }) => callKioskManager('return', entity, kiosk, body),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: allocationKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['devices'] });
      await queryClient.invalidateQueries({ queryKey: ['dispenser'] });
    },
  });
}

const AllocationListSchema = listOf(AllocationSchema);

/** GET tenant/{entity}/device/{name}/allocations: the device's allocation history, newest first. */
export function useAllocations(entity: string, device: string) {
  return useQuery({
    queryKey: allocationKeys.device(entity, device),
    queryFn: ({ signal }) =>
      api.get(tenantPath(entity, `device/${encodeURIComponent(device)}/allocations`), {
        query: { limit: 50 },
        signal,
        parse: (d) => AllocationListSchema.parse(d),
      }),
  });
}
