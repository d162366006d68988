import { Alert, List, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { BulkRow } from '../utils/bulk-rows.ts';

const PREVIEW = 5;

/**
 * What the file holds (fleet §2): the first 5 devices and '+ N more devices', then every row
 * that will not be sent and why, so it can be fixed before anything is added.
 */
export function BulkPreview({ rows }: { rows: BulkRow[] }) {
  const invalid = rows.filter((row) => row.issue !== undefined);
  const more = rows.length - PREVIEW;
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <Title order={2} size="h5" mb="xs">
          Preview: {rows.length} device{rows.length === 1 ? '' : 's'} in the file
        </Title>
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            The file has a header row but no devices.
          </Text>
        ) : (
          <List size="sm" spacing={4} listStyleType="none" aria-label="First devices in the file">
            {rows.slice(0, PREVIEW).map((row) => (
              <List.Item key={row.line}>
                <Text
                  span
                  ff="monospace"
                  size="sm"
                  fw={600}
                  c={row.issue ? 'red.8' : undefined}
                  td={row.issue ? 'line-through' : undefined}
                >
                  {row.name || '(no id)'}
                </Text>
                {row.description && (
                  <Text span size="sm" c="dimmed">
                    {' '}
                    — {row.description}
                  </Text>
                )}
              </List.Item>
            ))}
            {more > 0 && (
              <List.Item>
                <Text span size="sm" c="dimmed">
                  + {more} more device{more === 1 ? '' : 's'}
                </Text>
              </List.Item>
            )}
          </List>
        )}
      </Paper>
      {invalid.length > 0 && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={`${invalid.length} row${invalid.length === 1 ? '' : 's'} will not be sent`}
        >
          <Text size="sm" mb="xs">
            Fix them in the file and choose it again, or add the other devices now.
          </Text>
          <ScrollArea.Autosize mah={220} type="auto">
            <Table withRowBorders={false} verticalSpacing={2} fz="sm" aria-label="Rows that will not be sent">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Line</Table.Th>
                  <Table.Th>Device ID</Table.Th>
                  <Table.Th>Problem</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invalid.map((row) => (
                  <Table.Tr key={row.line}>
                    <Table.Td>{row.line}</Table.Td>
                    <Table.Td ff="monospace">{row.name || '(empty)'}</Table.Td>
                    <Table.Td>{row.issue}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Alert>
      )}
    </Stack>
  );
}
