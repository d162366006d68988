import { useState } from 'react';
import { Radio, Table, Text } from '@mantine/core';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { sortDispensers, type DispenserRow, type DispenserSort, type SortOrder } from '../utils/dispenser-sort.ts';

interface DispenserPickerProps {
  rows: DispenserRow[];
  /** `{kiosk}/{name}` of the chosen one. */
  value: string | null;
  disabled: boolean;
  onChange(row: DispenserRow): void;
}

const COLUMNS: ReadonlyArray<readonly [DispenserSort, string]> = [
  ['kiosk', 'Kiosk'],
  ['name', 'Dispenser'],
  ['capacity', 'Capacity'],
  ['site', 'Site'],
  ['state', 'State'],
];

export const dispenserKey = (r: DispenserRow) => `${r.kiosk}/${r.name}`;

/** Return Device's sortable table of dispensers (fleet §2), a radio per row; 'No dispensers found' when empty. */
export function DispenserPicker({ rows, value, disabled, onChange }: DispenserPickerProps) {
  const [sort, setSort] = useState<DispenserSort>('kiosk');
  const [order, setOrder] = useState<SortOrder>('asc');
  const sorted = sortDispensers(rows, sort, order);
  const onSort = (column: DispenserSort) => {
    setOrder(column === sort && order === 'asc' ? 'desc' : 'asc');
    setSort(column);
  };
  return (
    <Radio.Group value={value} onChange={(key) => onChange(rows.find((r) => dispenserKey(r) === key)!)}>
      <DataTable
        label="Dispensers"
        columns={[
          { header: 'Choose', hidden: true, w: 48 },
          ...COLUMNS.map(([column, header]) => ({ header, sort: column })),
        ]}
        sorting={{ sort, order, onSort }}
        items={sorted}
        loading={false}
        failed={false}
        errorTitle=""
        onRetry={() => undefined}
        empty={
          <Text ta="center" c="dimmed" py="lg">
            No dispensers found
          </Text>
        }
        minWidth={560}
        framed={false}
        look={{ verticalSpacing: 'xs', highlightOnHover: true }}
        row={(r) => {
          const full = r.capacity !== null && r.devices >= r.capacity;
          return (
            <Table.Tr key={dispenserKey(r)}>
              <Table.Td>
                <Radio
                  value={dispenserKey(r)}
                  disabled={disabled}
                  aria-label={`Return to dispenser ${r.name} of kiosk ${r.kiosk}`}
                />
              </Table.Td>
              <Table.Td>{r.kiosk}</Table.Td>
              <Table.Td>
                <Text fw={500} size="sm">
                  {r.name}
                </Text>
              </Table.Td>
              <Table.Td>
                {r.capacity === null ? (
                  <Text size="sm">{r.devices} (no limit)</Text>
                ) : (
                  <Text size="sm" c={full ? 'red' : undefined}>
                    {r.devices} of {r.capacity}
                    {full ? ' (full)' : ''}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.site ?? '—'}</Table.Td>
              <Table.Td>{r.state ?? '—'}</Table.Td>
            </Table.Tr>
          );
        }}
      />
    </Radio.Group>
  );
}
