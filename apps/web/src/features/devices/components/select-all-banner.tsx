import { Alert, Button, Group, Text } from '@mantine/core';

interface SelectAllBannerProps {
  /** Rows on this page, all ticked. */
  pageCount: number;
  /** Every device the filter matches. */
  total: number;
  /** The selection is the filter ("all N matching"), not ticked rows. */
  matching: boolean;
  onSelectAll(): void;
}

/**
 * After the header box ticked the page: offers to switch the selection to everything the filter
 * matches; once switched, says so (the toolbar's Clear selection undoes it, so it is not offered twice).
 */
export function SelectAllBanner({ pageCount, total, matching, onSelectAll }: SelectAllBannerProps) {
  const plural = (n: number) => `${n} device${n === 1 ? '' : 's'}`;
  return (
    <Alert variant="light" color="blue" mb="sm" py="xs" role="status">
      <Group gap="xs" justify="center">
        <Text size="sm">
          {matching
            ? `All ${plural(total)} matching the filters are selected.`
            : `All ${plural(pageCount)} on this page are selected.`}
        </Text>
        {!matching && (
          <Button variant="subtle" size="compact-sm" onClick={onSelectAll}>
            Select all {total} matching
          </Button>
        )}
      </Group>
    </Alert>
  );
}
