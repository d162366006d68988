import { useState } from 'react';
import { CloseButton, Group, Paper, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconClock } from '@tabler/icons-react';
import type { BulkCommandAnswer } from '@fleet/shared/schemas/command';
import { reportText } from '../utils/command-notices.ts';

/** At most this many devices are listed; the rest are counted. */
export const RESULTS_SHOWN = 50;

type Result = BulkCommandAnswer['data']['results'][number];

/** One device's outcome in words, e.g. 'state IDLE · firmware 3.0.1 · battery 64%' or 'Failed: Sensor offline'. */
export function resultText(result: Result): string {
  switch (result.state) {
    case 'succeeded':
      return reportText(result.report) || 'Answered';
    case 'queued':
      return 'Not connected: held until it connects';
    case 'sent':
      return 'Sent, no reply yet';
    case 'timed_out':
      return 'Did not answer in time';
    case 'expired':
      return 'Expired before it woke';
    case 'not_found':
      return 'Not found';
    case 'failed':
      return result.error ? `Failed: ${result.error}` : 'Failed';
  }
}

const tone = (state: Result['state']) =>
  state === 'succeeded' ? 'ok' : state === 'queued' || state === 'sent' ? 'waiting' : 'bad';

/**
 * The replies of a command sent to the selected devices, one line a device (a refresh's reply
 * as a single refresh shows it): `show` takes the answer, `panel` renders it above the list
 * until closed or replaced by the next.
 */
export function useBulkResults() {
  const [shown, setShown] = useState<{ label: string; answer: BulkCommandAnswer; at: number } | null>(null);
  const show = (label: string, answer: BulkCommandAnswer) => setShown({ label, answer, at: Date.now() });
  const panel = shown && (
    <BulkResultsPanel key={shown.at} label={shown.label} answer={shown.answer} onClose={() => setShown(null)} />
  );
  return { show, panel };
}

function BulkResultsPanel({ label, answer, onClose }: { label: string; answer: BulkCommandAnswer; onClose(): void }) {
  const { results } = answer.data;
  const listed = results.slice(0, RESULTS_SHOWN);
  return (
    <Paper withBorder radius="md" p="sm" mb="md" role="region" aria-label={`${label}: replies`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm" fw={600}>
            {label}
          </Text>
          <CloseButton size="sm" aria-label={`Close the replies of ${label}`} onClick={onClose} />
        </Group>
        <Text size="sm">{answer.userMessage}</Text>
        <Table.ScrollContainer minWidth={0} mah={240}>
          <Table verticalSpacing={4} fz="sm" aria-label={`${label}: each device's reply`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device ID</Table.Th>
                <Table.Th>Reply</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {listed.map((result) => (
                <Table.Tr key={result.device}>
                  <Table.Td ff="monospace">{result.device}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <OutcomeIcon state={result.state} />
                      <span>{resultText(result)}</span>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {results.length > listed.length && (
          <Text size="sm" c="dimmed">
            and {results.length - listed.length} more
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function OutcomeIcon({ state }: { state: Result['state'] }) {
  const kind = tone(state);
  const [color, Icon] =
    kind === 'ok' ? ['teal', IconCheck] : kind === 'waiting' ? ['gray', IconClock] : ['red', IconAlertTriangle];
  return (
    <ThemeIcon size="xs" radius="xl" variant="light" color={color} aria-hidden>
      <Icon size={12} />
    </ThemeIcon>
  );
}
