import { Table, Text } from '@mantine/core';
import type { AuditEntry } from '@fleet/shared/schemas/audit';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import classes from '@/components/ui/tones.module.css';
import { actorText, changeLines } from '../utils/audit-text.ts';

/** Changed fields a row shows; the rest are in its tooltip and in the export. */
const SHOWN_LINES = 4;

interface AuditTableProps {
  entries: readonly AuditEntry[] | undefined;
  landlord: boolean;
  loading: boolean;
  refreshing: boolean;
  failed: boolean;
  filtered: boolean;
  onRetry(): void;
}

/** The audit entries, newest first: When, (Entity,) Actor, Action, Target, Outcome, Changes. */
export function AuditTable({ entries, landlord, loading, refreshing, failed, filtered, onRetry }: AuditTableProps) {
  return (
    <DataTable
      label="Audit log"
      columns={[
        { header: 'When' },
        landlord && { header: 'Entity' },
        { header: 'Actor' },
        { header: 'Action' },
        { header: 'Target' },
        { header: 'Outcome' },
        { header: 'Changes' },
      ]}
      items={entries}
      loading={loading}
      refreshing={refreshing}
      failed={failed}
      errorTitle="The audit log could not be loaded."
      onRetry={onRetry}
      empty={
        filtered ? (
          <ListEmpty
            title="No entries match these filters"
            description="Widen the time range or clear a filter to see more."
          />
        ) : (
          <ListEmpty
            title="Nothing recorded yet"
            description="Every sign-in, change and command will appear here: who did it, from where, to what, and what changed."
          />
        )
      }
      minWidth={landlord ? 1000 : 900}
      look={{ verticalSpacing: 'xs', highlightOnHover: true }}
      row={(entry) => <AuditRow key={entry.id} entry={entry} landlord={landlord} />}
    />
  );
}

function AuditRow({ entry, landlord }: { entry: AuditEntry; landlord: boolean }) {
  const lines = changeLines(entry);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </Table.Td>
      {landlord && (
        <Table.Td>
          {entry.entity ?? (
            <Text span c="dimmed" size="sm">
              Landlord
            </Text>
          )}
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm">{actorText(entry.actor)}</Text>
        {entry.address && (
          <Text size="xs" c="dimmed" title={entry.user_agent ?? undefined}>
            {entry.address}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {entry.action}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {entry.target.type}
        </Text>
        <Text size="sm">{entry.target.name ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <span className={`${classes.tone} ${classes.pill}`} data-tone={entry.outcome === 'success' ? 'green' : 'red'}>
          {entry.outcome === 'success' ? 'Success' : 'Failure'}
        </span>
        {entry.reason && (
          <Text size="xs" c="dimmed" mt={2} lineClamp={2} title={entry.reason}>
            {entry.reason}
          </Text>
        )}
      </Table.Td>
      <Table.Td maw={320}>
        {lines.length === 0 ? (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ) : (
          <>
            {lines.slice(0, SHOWN_LINES).map((line) => (
              <Text key={line} size="xs" lineClamp={2} title={line} style={{ wordBreak: 'break-word' }}>
                {line}
              </Text>
            ))}
            {lines.length > SHOWN_LINES && (
              <Text size="xs" c="dimmed" title={lines.join('\n')}>
                and {lines.length - SHOWN_LINES} more (in the export)
              </Text>
            )}
          </>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
