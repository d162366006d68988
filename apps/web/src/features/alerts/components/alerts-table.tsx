import { Button, Group, Table, Text } from '@mantine/core';
import type { Alert } from '@fleet/shared/schemas/alert';
import { Link } from 'react-router';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import classes from '@/components/ui/tones.module.css';
import { useAlertChange } from '../api/alerts-api.ts';
import { KIND_LABELS, SEVERITY_TONES, STATUS_LABELS, STATUS_TONES, alertDetail, alertSubject } from './alert-labels.ts';

/** What a person may do to an alert, by the statuses it applies to. */
const ACTIONS = [
  { change: 'acknowledge', label: 'Acknowledge', variant: 'light', from: ['active'] },
  { change: 'clear', label: 'Clear', variant: 'default', from: ['active', 'acknowledged'] },
] as const satisfies ReadonlyArray<{
  change: string;
  label: string;
  variant: string;
  from: readonly Alert['status'][];
}>;

interface AlertsTableProps {
  alerts: readonly Alert[] | undefined;
  loading: boolean;
  failed: boolean;
  filtered: boolean;
  onRetry(): void;
  /** On a device's screen the device column is left out. */
  showDevice?: boolean;
  /** The superadmin's view of every entity: an Entity column, no actions (they are the entity's). */
  landlord?: boolean;
}

/** Alerts newest first: Raised, Device, Rule, Severity, Status, and Acknowledge / Clear. */
export function AlertsTable({
  alerts,
  loading,
  failed,
  filtered,
  onRetry,
  showDevice = true,
  landlord = false,
}: AlertsTableProps) {
  return (
    <DataTable
      label="Alerts"
      columns={[
        { header: 'Raised' },
        landlord && { header: 'Entity' },
        showDevice && { header: 'Device' },
        { header: 'Rule' },
        { header: 'Severity' },
        { header: 'Status' },
        !landlord && { header: 'Actions' },
      ]}
      items={alerts}
      loading={loading}
      failed={failed}
      errorTitle="The alerts could not be loaded."
      onRetry={onRetry}
      empty={
        filtered ? (
          <ListEmpty title="No alerts match these filters" description="Clear a filter to see more." />
        ) : (
          <ListEmpty
            title="No alerts"
            description="Alerts appear here when a device meets one of the entity's rules."
          />
        )
      }
      minWidth={showDevice ? 860 : 700}
      look={{ verticalSpacing: 'xs', highlightOnHover: true }}
      row={(alert) => <AlertRow key={alert.id} alert={alert} showDevice={showDevice} landlord={landlord} />}
    />
  );
}

function AlertRow({ alert, showDevice, landlord }: { alert: Alert; showDevice: boolean; landlord: boolean }) {
  const change = useAlertChange();
  const busy = change.isPending;
  return (
    <Table.Tr data-alert={alert.id}>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        <time dateTime={alert.raised_at}>{formatDateTime(alert.raised_at)}</time>
      </Table.Td>
      {landlord && <Table.Td>{alert.entity}</Table.Td>}
      {showDevice && (
        <Table.Td>
          {alert.device === null || landlord ? (
            alertSubject(alert).label
          ) : (
            <Link to={`/device/${encodeURIComponent(alert.device)}`}>{alert.device}</Link>
          )}
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm">{alert.rule_name}</Text>
        <Text size="xs" c="dimmed">
          {KIND_LABELS[alert.kind]}
          {alertDetail(alert) && ` · ${alertDetail(alert)}`}
        </Text>
      </Table.Td>
      <Table.Td>
        <span className={`${classes.tone} ${classes.pill}`} data-tone={SEVERITY_TONES[alert.severity]}>
          {alert.severity}
        </span>
      </Table.Td>
      <Table.Td>
        <span className={`${classes.tone} ${classes.pill}`} data-tone={STATUS_TONES[alert.status]}>
          {STATUS_LABELS[alert.status]}
        </span>
        {alert.acknowledged_by && (
          <Text size="xs" c="dimmed">
            by {alert.acknowledged_by}
          </Text>
        )}
        {alert.cleared_by && (
          <Text size="xs" c="dimmed">
            {alert.cleared_by === 'condition' ? 'condition ended' : `by ${alert.cleared_by}`}
          </Text>
        )}
      </Table.Td>
      {!landlord && (
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            {ACTIONS.filter((a) => (a.from as readonly string[]).includes(alert.status)).map((a) => (
              <Button
                key={a.change}
                size="xs"
                variant={a.variant}
                loading={busy}
                onClick={() => change.mutate({ id: alert.id, change: a.change })}
              >
                {a.label}
              </Button>
            ))}
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}
