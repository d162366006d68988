import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listOf, statusWith } from '@fleet/shared/schemas/list';
import {
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  type WebhookEvent,
} from '@fleet/shared/schemas/webhook';
import { api } from '@/lib/api/api.ts';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

const ListSchema = listOf(WebhookSchema);
const DeliveriesSchema = listOf(WebhookDeliverySchema);
const WithSecret = statusWith(WebhookWithSecretSchema);

export interface WebhookFields {
  url: string;
  description: string;
  events: WebhookEvent[];
  enabled: boolean;
}

/** The active entity's webhooks (`tenant/{entity}/webhooks`); re-read while open, for the notice. */
export function useWebhooks() {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) =>
      api.get(api.tenant('webhooks'), { signal, notify: false, parse: (data) => ListSchema.parse(data) }),
    refetchInterval: 15_000,
  });
}

/** A webhook's delivery log, newest first; re-read every few seconds while shown. */
export function useWebhookDeliveries(id: string | null) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id ?? ''),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      api.get(api.tenant(`webhooks/${id}/deliveries`), {
        query: { limit: 50 },
        signal,
        notify: false,
        parse: (data) => DeliveriesSchema.parse(data),
      }),
    refetchInterval: 3_000,
  });
}

/** Every change to webhooks, each re-reading the lists after. */
export function useWebhookChanges() {
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: webhookKeys.all });
  return {
    create: useMutation({
      mutationFn: (document: WebhookFields) =>
        api.post(api.tenant('webhooks'), { document }, { parse: (data) => WithSecret.parse(data) }),
      onSettled,
    }),
    update: useMutation({
      mutationFn: ({ id, $set }: { id: string; $set: Partial<WebhookFields> }) =>
        api.put(api.tenant(`webhooks/${id}`), { operator: { $set } }),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => api.delete(api.tenant(`webhooks/${id}`)), onSettled }),
    test: useMutation({ mutationFn: (id: string) => api.post(api.tenant(`webhooks/${id}/test`)), onSettled }),
    rotate: useMutation({
      mutationFn: (id: string) =>
        api.post(api.tenant(`webhooks/${id}/rotate-secret`), undefined, { parse: (data) => WithSecret.parse(data) }),
      onSettled,
    }),
  };
}
