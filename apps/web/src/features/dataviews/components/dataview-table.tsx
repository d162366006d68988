import { Checkbox, Paper, Table, Text } from '@mantine/core';
import type { Dataview } from '@fleet/shared/schemas/dataview';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import { DataviewRowActions, type DataviewRowHandlers } from './dataview-row-actions.tsx';

interface DataviewTableProps {
  dataviews: Dataview[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  /** The landlord's list: selection and an Entity column (fleet §2). */
  landlord: boolean;
  /** Row actions, or null when the viewer may not use them (fleet §6). */
  actions: DataviewRowHandlers | null;
  /** What an empty list says. */
  empty: { title: string; description?: string };
  selected?: Set<string>;
  onSelect?(key: string, on: boolean): void;
  onSelectAll?(on: boolean): void;
}

export const rowKey = (d: Dataview) => `${d.entity}/${d.name}`;

/** The dataview lists of fleet §2: the entity's and the landlord's across entities. */
export function DataviewTable(props: DataviewTableProps) {
  const { dataviews, loading, failed, onRetry, landlord, actions, empty, selected } = props;
  const columns = 5 + (landlord ? 2 : 0) + (actions ? 1 : 0);
  const all = dataviews ?? [];
  const allOn = all.length > 0 && all.every((d) => selected?.has(rowKey(d)));
  let body;
  if (loading && !dataviews)
    body = (
      <>
        <TableMessageRow columns={columns}>
          <Text size="sm" c="dimmed" p="sm">
            Loading Dataviews
          </Text>
        </TableMessageRow>
        <TableSkeletonRows columns={columns} rows={3} />
      </>
    );
  else if (failed || !dataviews)
    body = (
      <TableMessageRow columns={columns}>
        <ListError title="The dataviews could not be loaded." onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (dataviews.length === 0)
    body = (
      <TableMessageRow columns={columns}>
        <ListEmpty title={empty.title} description={empty.description} />
      </TableMessageRow>
    );
  else
    body = dataviews.map((d) => (
      <Table.Tr key={rowKey(d)}>
        {landlord && (
          <Table.Td>
            <Checkbox
              aria-label={`Select dataview ${d.name} of ${d.entity}`}
              checked={selected?.has(rowKey(d)) ?? false}
              onChange={(e) => props.onSelect?.(rowKey(d), e.currentTarget.checked)}
            />
          </Table.Td>
        )}
        <Table.Td>
          <Text fw={500} size="sm">
            {d.name}
          </Text>
        </Table.Td>
        {landlord && <Table.Td>{d.entity}</Table.Td>}
        <Table.Td>
          {d.owner ?? (
            <Text span size="sm" c="dimmed">
              No owner
            </Text>
          )}
        </Table.Td>
        <Table.Td>{d.version}</Table.Td>
        <Table.Td>{d.authorized_accounts.length}</Table.Td>
        <Table.Td>
          <Text size="sm" lineClamp={2}>
            {d.description}
          </Text>
        </Table.Td>
        {actions && (
          <Table.Td>
            <DataviewRowActions dataview={d} {...actions} />
          </Table.Td>
        )}
      </Table.Tr>
    ));

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" horizontalSpacing={landlord ? 'xs' : 'md'} highlightOnHover aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {landlord && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all dataviews on this page"
                    checked={allOn}
                    indeterminate={!allOn && all.some((d) => selected?.has(rowKey(d)))}
                    onChange={(e) => props.onSelectAll?.(e.currentTarget.checked)}
                  />
                </Table.Th>
              )}
              <Table.Th>Name</Table.Th>
              {landlord && <Table.Th>Entity</Table.Th>}
              <Table.Th>Owner</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Authorized Accounts</Table.Th>
              <Table.Th>Description</Table.Th>
              {actions && <Table.Th w={140}>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
