import { Button, Group, Loader, Paper, Table, Text, Title } from '@mantine/core';
import type { Command } from '@fleet/shared/schemas/command';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import { formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { useDeviceCommands } from '../api/get-device-commands.ts';
import { useNow } from '@/lib/use-now.ts';
import { commandOutcome, commandText, formatLatency, joinPages, targetNote } from '../utils/command-history.ts';
import classes from '@/components/ui/tones.module.css';

const COLUMNS = 5;

/**
 * The device's command history: When, Command, Sent by, Outcome, Latency; 20 at a time with
 * "Load more", refreshed every 30 s and after each command sent from this tab.
 */
export function CommandHistory({ entity, name }: { entity: string; name: string }) {
  const history = useDeviceCommands(entity, name);
  const now = useNow();
  const rows = history.data ? joinPages(history.data.pages) : undefined;
  const total = history.data?.pages.at(-1)?.total ?? 0;

  let body;
  if (history.isPending) body = <TableSkeletonRows columns={COLUMNS} rows={3} />;
  else if (!rows)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListError title="The command history could not be loaded." onRetry={() => void history.refetch()} />
      </TableMessageRow>
    );
  else if (rows.length === 0)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListEmpty
          title="No commands sent to this device yet"
          description="Refresh, Vibrate and Reboot above send one; each appears here with its outcome."
        />
      </TableMessageRow>
    );
  else body = rows.map((command) => <CommandRow key={command.id} command={command} now={now} />);

  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Commands
        </Title>
        {history.isFetching && !history.isPending && <Loader size="xs" aria-hidden />}
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label="Command history" aria-busy={history.isPending}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Command</Table.Th>
              <Table.Th>Sent by</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th ta="right">Latency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
