import { Group, NativeSelect, Pagination, Text } from '@mantine/core';
import { DEVICE_PAGE_SIZES } from '@fleet/shared/constants';
import { lastPage, type PageSize } from '../utils/list-query.ts';

interface DevicePaginationProps {
  page: number;
  size: PageSize;
  total: number;
  onPage(page: number): void;
  onSize(size: PageSize): void;
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** Pages of 10, 20 or 50 devices (core §9) with the range shown and the total. */
export function DevicePagination({ page, size, total, onPage, onSize }: DevicePaginationProps) {
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  const to = Math.min(page * size, total);
  return (
    <Group justify="space-between" mt="md" gap="md">
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === 0 ? 'No devices' : `${from}–${to} of ${total} device${total === 1 ? '' : 's'}`}
      </Text>
      <Group gap="lg">
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" component="label" htmlFor="device-page-size">
            Rows per page
          </Text>
          <NativeSelect
            id="device-page-size"
            size="xs"
            w={72}
            data={DEVICE_PAGE_SIZES.map(String)}
            value={String(size)}
            onChange={(event) => onSize(Number(event.currentTarget.value) as PageSize)}
          />
        </Group>
        <Pagination
          size="sm"
          total={lastPage(total, size)}
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
