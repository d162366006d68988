import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertRuleSchema, type AlertRule } from '@fleet/shared/schemas/alert';
import { listOf } from '@fleet/shared/schemas/list';
import { api } from '@/lib/api/api.ts';
import { alertKeys } from './alerts-api.ts';

const ruleKeys = { list: () => [...alertKeys.all, 'rules'] as const };
const ListSchema = listOf(AlertRuleSchema);

/** What the editor sends: every field of a rule (the kind only when it is created). */
export type AlertRuleFields = Omit<AlertRule, 'id' | 'entity' | 'created_at' | 'updated_at'>;

/** The active entity's alert rules (`tenant/{entity}/alert-rules`), by name. */
export function useAlertRules() {
  return useQuery({
    queryKey: ruleKeys.list(),
    queryFn: ({ signal }) =>
      api.get(api.tenant('alert-rules'), { signal, notify: false, parse: (data) => ListSchema.parse(data) }),
  });
}

/** Creating, changing and deleting rules; the rules and alerts re-read after each. */
export function useAlertRuleChanges() {
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: alertKeys.all });
  return {
    create: useMutation({
      mutationFn: (document: AlertRuleFields) => api.post(api.tenant('alert-rules'), { document }),
      onSettled,
    }),
    update: useMutation({
      mutationFn: ({ id, $set }: { id: string; $set: Partial<Omit<AlertRuleFields, 'kind'>> }) =>
        api.put(api.tenant(`alert-rules/${id}`), { operator: { $set } }),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => api.delete(api.tenant(`alert-rules/${id}`)), onSettled }),
  };
}
