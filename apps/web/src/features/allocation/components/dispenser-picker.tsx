import { useState } from 'react';
import { Group, Radio, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
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
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" highlightOnHover aria-label="Dispensers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={48}>
                <VisuallyHidden>Choose</VisuallyHidden>
              </Table.Th>
              {COLUMNS.map(([column, label]) => {
                const active = column === sort;
                const Icon = !active ? IconArrowsSort : order === 'asc' ? IconArrowUp : IconArrowDown;
                return (
                  <Table.Th
                    key={column}
                    aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm">
                      <Group gap={4} wrap="nowrap">
                        {label}
                        <Icon size={14} stroke={1.8} aria-hidden style={{ opacity: active ? 1 : 0.45 }} />
                      </Group>
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 1}>
                  <Text ta="center" c="dimmed" py="lg">
                    No dispensers found
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              sorted.map((r) => {
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
              })
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Radio.Group>
  );
}
