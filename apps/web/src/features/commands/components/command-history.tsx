import { Button, Group, Loader, Paper, Table, Text, Title } from '@mantine/core';
import type { Command } from '@fleet/shared/schemas/command';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { useDeviceCommands } from '../api/get-device-commands.ts';
import { useNow } from '@/lib/use-now.ts';
import { commandOutcome, commandText, formatLatency, joinPages, targetNote } from '../utils/command-history.ts';
import classes from '@/components/ui/tones.module.css';

/**
 * The device's command history: When, Command, Sent by, Outcome, Latency; 20 at a time with
 * "Load more", refreshed every 30 s and after each command sent from this tab.
 */
export function CommandHistory({ entity, name }: { entity: string; name: string }) {
  const history = useDeviceCommands(entity, name);
  const now = useNow();
  const rows = history.data ? joinPages(history.data.pages) : undefined;
  const total = history.data?.pages.at(-1)?.total ?? 0;

  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Commands
        </Title>
        {history.isFetching && !history.isPending && <Loader size="xs" aria-hidden />}
      </Group>
      <DataTable
        label="Command history"
        columns={[
          { header: 'When' },
          { header: 'Command' },
          { header: 'Sent by' },
          { header: 'Outcome' },
          { header: 'Latency', ta: 'right' },
        ]}
        items={rows}
        loading={history.isPending}
        // A failed background refresh keeps the rows on screen; only no rows at all is the error.
        failed={!rows}
        errorTitle="The command history could not be loaded."
        onRetry={() => void history.refetch()}
        empty={
          <ListEmpty
            title="No commands sent to this device yet"
            description="Refresh, Vibrate and Reboot above send one; each appears here with its outcome."
          />
        }
        skeletonRows={3}
        minWidth={640}
        framed={false}
        look={{ verticalSpacing: 'xs' }}
        row={(command) => <CommandRow key={command.id} command={command} now={now} />}
      />
      {rows && rows.length > 0 && (
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed">
            {rows.length >= total ? `${total} command${total === 1 ? '' : 's'}` : `${rows.length} of ${total} commands`}
          </Text>
          {history.hasNextPage && (
            <Button
              variant="default"
              size="xs"
              onClick={() => void history.fetchNextPage()}
              loading={history.isFetchingNextPage}
            >
              Load more
            </Button>
          )}
        </Group>
      )}
    </Paper>
  );
}

function CommandRow({ command, now }: { command: Command; now: number }) {
  const outcome = commandOutcome(command);
  const note = targetNote(command.target);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <time dateTime={command.created_at} title={formatDateTime(command.created_at)}>
          {formatRelative(command.created_at, now)}
        </time>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {commandText(command)}
        </Text>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{command.sent_by}</Table.Td>
      <Table.Td>
        <span className={`${classes.tone} ${classes.pill}`} data-tone={outcome.tone}>
          {outcome.label}
        </span>
        {outcome.detail && (
          <Text size="xs" c="dimmed" mt={2} lineClamp={2} title={outcome.detail}>
            {outcome.detail}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {formatLatency(command.latency_ms)}
      </Table.Td>
    </Table.Tr>
  );
}
