import { DEVICE_PAGE_SIZES } from '@fleet/shared/constants';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import type { PageSize } from '../utils/list-query.ts';

interface DevicePaginationProps {
  page: number;
  size: PageSize;
  total: number;
  onPage(page: number): void;
  onSize(size: PageSize): void;
}

/** Pages of 10, 20 or 50 devices (core §9) with the range shown and the total. */
export function DevicePagination({ page, size, total, onPage, onSize }: DevicePaginationProps) {
  return (
    <ListPagination
      page={page}
      size={size}
      sizes={DEVICE_PAGE_SIZES}
      total={total}
      noun={['device', 'devices']}
      sizeId="device-page-size"
      onPage={onPage}
      onSize={(next) => onSize(next as PageSize)}
    />
  );
}
