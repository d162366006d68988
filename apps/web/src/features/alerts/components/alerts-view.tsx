import { useState } from 'react';
import { Group, Select, Stack } from '@mantine/core';
import { ALERT_RULE_KINDS, ALERT_SEVERITIES, type AlertListQuery } from '@fleet/shared/schemas/alert';
import { useAlerts } from '../api/alerts-api.ts';
import { KIND_LABELS } from './alert-labels.ts';
import { AlertsTable } from './alerts-table.tsx';

type Filters = Pick<AlertListQuery, 'status' | 'severity' | 'kind'>;

const STATUSES = [
  { value: 'open', label: 'Open (active and acknowledged)' },
  { value: 'active', label: 'Active' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'cleared', label: 'Cleared' },
];
const SEVERITIES = ALERT_SEVERITIES.map((s) => ({ value: s, label: s }));
const KINDS = ALERT_RULE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }));

/** Alerts with their filters (status, severity, rule kind); a device's own when `device` is given. */
export function AlertsView({ device }: { device?: string }) {
  const [filters, setFilters] = useState<Filters>({ status: device ? undefined : 'open' });
  const query = { ...filters, ...(device ? { device } : {}), limit: 100 };
  const alerts = useAlerts(query);
  const set = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });
  const pick = <T extends string>(value: string | null) => (value ?? undefined) as T | undefined;
  return (
    <Stack gap="sm">
      <Group gap="sm" align="end">
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={STATUSES}
          value={filters.status ?? null}
          onChange={(v) => set({ status: pick(v) })}
          w={240}
        />
        <Select
          label="Severity"
          placeholder="Any"
          clearable
          data={SEVERITIES}
          value={filters.severity ?? null}
          onChange={(v) => set({ severity: pick(v) })}
          w={160}
        />
        <Select
          label="Rule"
          placeholder="Any"
          clearable
          data={KINDS}
          value={filters.kind ?? null}
          onChange={(v) => set({ kind: pick(v) })}
          w={200}
        />
      </Group>
      <AlertsTable
        alerts={alerts.data?.data}
        loading={alerts.isPending}
        failed={alerts.isError}
        filtered={Object.values(filters).some((v) => v !== undefined)}
        onRetry={() => void alerts.refetch()}
        showDevice={!device}
      />
    </Stack>
  );
}
