import { Alert, Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { countResults, type BulkResult } from '../utils/bulk-add.ts';

const STATUS_TEXT: Record<BulkResult['status'], string> = {
  created: 'Added',
  failed: 'Failed',
  invalid: 'Not sent: invalid',
  stopped: 'Not sent: stopped',
};

interface BulkResultsProps {
  results: BulkResult[];
  onRetry(): void;
  busy: boolean;
}

/**
 * Every row's outcome after an upload that did not add everything: which rows failed and why
 * (the server's message), and which devices were added, so the user knows exactly what exists.
 */
export function BulkResults({ results, onRetry, busy }: BulkResultsProps) {
  const counts = countResults(results);
  const notAdded = results.filter((r) => r.status !== 'created');
  const added = results.filter((r) => r.status === 'created');
  const retryable = counts.failed + counts.stopped;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h5">
              Upload results
            </Title>
            <Text size="sm" c="dimmed" aria-live="polite">
              {counts.created} added · {counts.failed} failed · {counts.invalid} invalid
              {counts.stopped > 0 && ` · ${counts.stopped} not sent`}
            </Text>
          </div>
          {retryable > 0 && (
            <Button leftSection={<IconRefresh size={16} aria-hidden />} onClick={onRetry} loading={busy}>
              Retry failed rows ({retryable})
            </Button>
          )}
        </Group>
        {notAdded.length > 0 && (
          <Alert color="red" variant="light" title={`Not added (${notAdded.length})`} p="sm">
            <ScrollArea.Autosize mah={280} type="auto">
              <Table verticalSpacing={4} fz="sm" aria-label="Rows not added">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Device ID</Table.Th>
                    <Table.Th>Result</Table.Th>
                    <Table.Th>Reason</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {notAdded.map((r) => (
                    <Table.Tr key={r.row.line}>
                      <Table.Td>{r.row.line}</Table.Td>
                      <Table.Td ff="monospace">{r.row.name || '(empty)'}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{STATUS_TEXT[r.status]}</Table.Td>
                      <Table.Td>{'message' in r ? r.message : 'Retry to send it.'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </Alert>
        )}
        {added.length > 0 && (
          <div>
            <Text size="sm" fw={600} mb={6}>
              Added ({added.length})
            </Text>
            <ScrollArea.Autosize mah={160} type="auto">
              <Group gap={6} aria-label="Devices added">
                {added.map((r) => (
                  <Badge key={r.row.line} variant="default" ff="monospace" tt="none" fw={500}>
                    {r.row.name}
                  </Badge>
                ))}
              </Group>
            </ScrollArea.Autosize>
          </div>
        )}
      </Stack>
    </Paper>
  );
}
