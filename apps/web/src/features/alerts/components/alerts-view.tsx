import { useState } from 'react';
import { Group, Select, Stack } from '@mantine/core';
import { ALERT_RULE_KINDS, ALERT_SEVERITIES, type AlertListQuery } from '@fleet/shared/schemas/alert';
import { useAlerts } from '../api/alerts-api.ts';
import { KIND_LABELS } from './alert-labels.ts';
import { AlertsTable } from './alerts-table.tsx';

type Filters = Pick<AlertListQuery, 'status' | 'severity' | 'kind' | 'entity'>;

const STATUSES = [
  { value: 'open', label: 'Open (active or acknowledged)' },
  { value: 'active', label: 'Active' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'cleared', label: 'Cleared' },
];
const SEVERITIES = ALERT_SEVERITIES.map((s) => ({ value: s, label: s }));
const KINDS = ALERT_RULE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }));
const FILTERS = [
  { key: 'status', label: 'Status', data: STATUSES, w: 290 },
  { key: 'severity', label: 'Severity', data: SEVERITIES, w: 160 },
  { key: 'kind', label: 'Rule', data: KINDS, w: 200 },
] as const;

interface AlertsViewProps {
  /** A device's own alerts. */
  device?: string;
  /** The superadmin's view of every entity's alerts, with an entity filter from `entities`. */
  entities?: readonly string[];
}

/** Alerts with their filters (status, severity, rule kind); a device's own when `device` is given. */
export function AlertsView({ device, entities }: AlertsViewProps) {
  const landlord = entities !== undefined;
  const [filters, setFilters] = useState<Filters>({ status: device ? undefined : 'open' });
  const query = { ...filters, ...(device ? { device } : {}), limit: 100 };
  const alerts = useAlerts(query, landlord);
  return (
    <Stack gap="sm">
      <Group gap="sm" align="end">
        {landlord && (
          <Select
            label="Entity"
            placeholder="Every entity"
            clearable
            searchable
            data={[...entities]}
            value={filters.entity ?? null}
            onChange={(v) => setFilters({ ...filters, entity: v ?? undefined })}
            w={220}
          />
        )}
        {FILTERS.map(({ key, label, data, w }) => (
          <Select
            key={key}
            label={label}
            placeholder="Any"
            clearable
            data={data}
            value={filters[key] ?? null}
            onChange={(v) => setFilters({ ...filters, [key]: v ?? undefined })}
            w={w}
          />
        ))}
      </Group>
      <AlertsTable
        alerts={alerts.data?.data}
        loading={alerts.isPending}
        failed={alerts.isError}
        filtered={Object.values(filters).some((v) => v !== undefined)}
        onRetry={() => void alerts.refetch()}
        showDevice={!device}
        landlord={landlord}
      />
    </Stack>
  );
}
