import { Checkbox, Table, Text } from '@mantine/core';
import type { Dataview } from '@fleet/shared/schemas/dataview';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
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
  const all = dataviews ?? [];
  const allOn = all.length > 0 && all.every((d) => selected?.has(rowKey(d)));
  return (
    <DataTable
      columns={[
        { header: 'Name' },
        landlord && { header: 'Entity' },
        { header: 'Owner' },
        { header: 'Version' },
        { header: 'Authorized Accounts' },
        { header: 'Description' },
        !!actions && { header: 'Actions', w: 140 },
      ]}
      selectAll={
        landlord
          ? {
              label: 'Select all dataviews on this page',
              checked: allOn,
              indeterminate: !allOn && all.some((d) => selected?.has(rowKey(d))),
              onChange: (on) => props.onSelectAll?.(on),
              w: 40,
            }
          : undefined
      }
      items={dataviews}
      loading={loading}
      failed={failed}
      errorTitle="The dataviews could not be loaded."
      onRetry={onRetry}
      loadingText="Loading Dataviews"
      skeletonRows={3}
      empty={<ListEmpty title={empty.title} description={empty.description} />}
      minWidth={720}
      look={{ verticalSpacing: 'sm', horizontalSpacing: landlord ? 'xs' : 'md', highlightOnHover: true }}
      row={(d) => (
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
      )}
    />
  );
}
