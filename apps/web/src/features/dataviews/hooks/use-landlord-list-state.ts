import { useSearchParams } from 'react-router';
import { DATAVIEW_PAGE_SIZES, DATAVIEW_PAGE_SIZE_DEFAULT } from '@fleet/shared/constants';
import type { DataviewFilterValues } from '../components/dataview-filters.tsx';

/**
 * The landlord list's filters, page and page size, kept in the URL so a reload or a shared link
 * shows the same page. A filter or page-size change goes back to page 1 (fleet §2).
 */
export function useLandlordListState() {
  const [params, setParams] = useSearchParams();
  const filters: DataviewFilterValues = {
    entity: params.getAll('entity'),
    owner: params.getAll('owner'),
    version: params.getAll('version'),
  };
  const sizeParam = Number(params.get('size'));
  const size = (DATAVIEW_PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DATAVIEW_PAGE_SIZE_DEFAULT;
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));

  const write = (next: DataviewFilterValues, nextPage: number, nextSize: number) => {
    const p = new URLSearchParams();
    for (const key of ['entity', 'owner', 'version'] as const) for (const v of next[key]) p.append(key, v);
    if (nextPage > 1) p.set('page', String(nextPage));
    if (nextSize !== DATAVIEW_PAGE_SIZE_DEFAULT) p.set('size', String(nextSize));
    setParams(p, { replace: true });
  };
  return {
    filters,
    page,
    size,
    setFilters: (next: DataviewFilterValues) => write(next, 1, size),
    setPage: (next: number) => write(filters, next, size),
    setSize: (next: number) => write(filters, 1, next),
  };
}
