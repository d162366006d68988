import { Badge, Button, Group, Loader } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { DeviceSearch } from './device-search.tsx';

interface FilterBarProps {
  search: string;
  onSearch(search: string): void;
  /** Sidebar filters in effect (the search not counted). */
  filterCount: number;
  /** Any filter or search in effect: offers Clear filters. */
  filtered: boolean;
  filtersOpen: boolean;
  onOpenFilters(): void;
  onClear(): void;
  /** A background refresh is running. */
  refreshing: boolean;
}

/** Search box, the filter sidebar toggle with its count, Clear filters and a quiet refresh mark. */
export function FilterBar(props: FilterBarProps) {
  const { search, onSearch, filterCount, filtered, filtersOpen, onOpenFilters, onClear, refreshing } = props;
  return (
    <Group gap="sm">
      <DeviceSearch value={search} onSearch={onSearch} />
      <Button
        variant={filterCount > 0 ? 'light' : 'default'}
        leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
        rightSection={
          filterCount > 0 && (
            <Badge size="sm" circle aria-label={`${filterCount} active`}>
              {filterCount}
            </Badge>
          )
        }
        onClick={onOpenFilters}
        aria-expanded={filtersOpen}
      >
        Filters
      </Button>
      {filtered && (
        <Button variant="subtle" onClick={onClear}>
          Clear filters
        </Button>
      )}
      {refreshing && <Loader size="xs" aria-label="Refreshing the list" />}
    </Group>
  );
}
