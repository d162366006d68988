import { useState } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import {
  ALERT_RULE_KINDS,
  ALERT_SCOPES,
  ALERT_SEVERITIES,
  THRESHOLD_ALERT_KINDS,
  type AlertRule,
} from '@fleet/shared/schemas/alert';
import type { FieldErrors } from '@/lib/forms/field-errors.ts';
import type { AlertRuleFields } from '../api/alert-rules-api.ts';
import { KIND_LABELS } from './alert-labels.ts';

export const RULE_FIELDS = [
  'name',
  'kind',
  'scope',
  'scope_name',
  'threshold',
  'start_delay_s',
  'clear_delay_s',
  'severity',
  'enabled',
  'email_to',
  'webhook',
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

const SCOPE_LABELS: Record<(typeof ALERT_SCOPES)[number], string> = {
  entity: 'The whole entity',
  site: 'A site',
  group: 'A group',
  view: 'A shared saved view',
};
const THRESHOLD_HINTS: Partial<Record<AlertRule['kind'], string>> = {
  unresponsive: 'Minutes without a sign of life (20 or more)',
  battery_low: 'Battery level in %, at or below which it alerts',
};

interface AlertRuleFormProps {
  /** The rule being edited; none to create one. */
  initial?: AlertRule;
  busy: boolean;
  errors?: FieldErrors<RuleField>;
  onSubmit(fields: AlertRuleFields): void;
  onCancel(): void;
}

const initialFields = (r?: AlertRule): AlertRuleFields => ({
  name: r?.name ?? '',
  kind: r?.kind ?? 'battery_low',
  scope: r?.scope ?? 'entity',
  scope_name: r?.scope_name ?? null,
  threshold: r ? r.threshold : 15,
  start_delay_s: r?.start_delay_s ?? 0,
  clear_delay_s: r?.clear_delay_s ?? 0,
  severity: r?.severity ?? 'warning',
  enabled: r?.enabled ?? true,
  email_to: r?.email_to ?? [],
  webhook: r?.webhook ?? false,
});

/** An alert rule's fields; the kind is chosen when the rule is created and stays. */
export function AlertRuleForm({ initial, busy, errors = {}, onSubmit, onCancel }: AlertRuleFormProps) {
  const [f, setF] = useState<AlertRuleFields>(() => initialFields(initial));
  const set = <K extends keyof AlertRuleFields>(key: K, value: AlertRuleFields[K]) => setF({ ...f, [key]: value });
  const takesThreshold = THRESHOLD_ALERT_KINDS.includes(f.kind);
  const seconds = (key: 'start_delay_s' | 'clear_delay_s', label: string) => (
    <NumberInput
      label={label}
      min={0}
      max={86_400}
      value={f[key]}
      onChange={(v) => set(key, typeof v === 'number' ? v : 0)}
      error={errors[key]}
    />
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({
          ...f,
          name: f.name.trim(),
          threshold: takesThreshold ? f.threshold : null,
          scope_name: f.scope === 'entity' ? null : (f.scope_name ?? '').trim() || null,
        });
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          value={f.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Kind"
            data={ALERT_RULE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            value={f.kind}
            disabled={initial !== undefined}
            allowDeselect={false}
            onChange={(v) => v && set('kind', v as AlertRule['kind'])}
            error={errors.kind}
          />
          <Select
            label="Severity"
            data={ALERT_SEVERITIES.map((s) => ({ value: s, label: s }))}
            value={f.severity}
            allowDeselect={false}
            onChange={(v) => v && set('severity', v as AlertRule['severity'])}
            error={errors.severity}
          />
          <Select
            label="Scope"
            data={ALERT_SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s] }))}
            value={f.scope}
            allowDeselect={false}
            onChange={(v) => v && setF({ ...f, scope: v as AlertRule['scope'], scope_name: null })}
            error={errors.scope}
          />
          <TextInput
            label="Site, group or view name"
            disabled={f.scope === 'entity'}
            value={f.scope_name ?? ''}
            onChange={(e) => set('scope_name', e.currentTarget.value)}
            error={errors.scope_name}
          />
        </SimpleGrid>
        {takesThreshold && (
          <NumberInput
            label="Threshold"
            description={THRESHOLD_HINTS[f.kind]}
            min={0}
            value={f.threshold ?? ''}
            onChange={(v) => set('threshold', typeof v === 'number' ? v : null)}
            error={errors.threshold}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {seconds('start_delay_s', 'Start delay (seconds)')}
          {seconds('clear_delay_s', 'Clear delay (seconds)')}
        </SimpleGrid>
        {/* Delivery (issue 29): e-mail addresses and the entity's webhooks, per rule. */}
        <TagsInput
          label="E-mail to"
          description="One e-mail per burst of alerts"
          value={f.email_to}
          onChange={(v) => set('email_to', v)}
          error={errors.email_to}
        />
        <Switch
          label="Send to webhooks"
          checked={f.webhook}
          onChange={(e) => set('webhook', e.currentTarget.checked)}
        />
        <Switch label="On" checked={f.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} disabled={f.name.trim() === ''}>
            {initial ? 'Save' : 'Create rule'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
