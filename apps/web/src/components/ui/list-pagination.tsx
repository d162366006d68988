import { Group, NativeSelect, Pagination, Text } from '@mantine/core';

interface ListPaginationProps {
  page: number;
  size: number;
  sizes: readonly number[];
  total: number;
  /** `total` is a lower bound (more match than the server counted): shown as "10,000+". */
  totalIsLowerBound?: boolean;
  /** What the list holds, singular and plural: ['device', 'devices']. */
  noun: readonly [string, string];
  /** Id of the page-size select, unique on the page. */
  sizeId: string;
  onPage(page: number): void;
  onSize(size: number): void;
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** Pages of a server-paged list with the range shown, the total and a rows-per-page choice. */
export function ListPagination(props: ListPaginationProps) {
  const { page, size, sizes, total, totalIsLowerBound = false, noun, sizeId, onPage, onSize } = props;
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  const to = Math.min(page * size, total);
  const of = totalIsLowerBound
    ? `${total.toLocaleString('en-US')}+ ${noun[1]}`
    : `${total} ${total === 1 ? noun[0] : noun[1]}`;
  return (
    <Group justify="space-between" mt="md" gap="md">
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === 0 ? `No ${noun[1]}` : `${from}–${to} of ${of}`}
      </Text>
      <Group gap="lg">
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" component="label" htmlFor={sizeId}>
            Rows per page
          </Text>
          <NativeSelect
            id={sizeId}
            size="xs"
            w={72}
            data={sizes.map(String)}
            value={String(size)}
            onChange={(event) => onSize(Number(event.currentTarget.value))}
          />
        </Group>
        <Pagination
          size="sm"
          total={Math.max(1, Math.ceil(total / size))}
          value={page}
          onChange={onPage}
          withEdges
          getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}`, 'aria-current': p === page ? 'page' : undefined })}
        />
      </Group>
    </Group>
  );
}
