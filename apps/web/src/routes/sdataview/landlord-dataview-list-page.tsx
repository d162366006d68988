import { useEffect, useState } from 'react';
import { Button, Grid, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DATAVIEW_PAGE_SIZES } from '@fleet/shared/constants';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useDataviewFacets, useLandlordDataviews } from '@/features/dataviews/api/get-dataviews.ts';
import { DataviewFilters } from '@/features/dataviews/components/dataview-filters.tsx';
import { useLandlordListState } from '@/features/dataviews/hooks/use-landlord-list-state.ts';
import { DataviewTable, rowKey } from '@/features/dataviews/components/dataview-table.tsx';
import { useDataviewRowActions } from '@/features/dataviews/hooks/use-dataview-row-actions.ts';
import { canChangeDataviews, showLandlordActions } from '@/features/dataviews/utils/dataview-permissions.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /sDataview: every entity's dataviews, filtered and paged by the server (fleet §2, §9). */
export function LandlordDataviewListPage() {
  useDocumentTitle('Dataviews');
  const { claims } = useSession();
  const { filters, page, size, setFilters, setPage, setSize } = useLandlordListState();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const list = useLandlordDataviews({ ...filters, limit: size, offset: (page - 1) * size });
  const facets = useDataviewFacets();
  const actions = useDataviewRowActions(true);
  const rows = list.data?.data;
  const total = list.data?.total ?? 0;
  // A page emptied by deletions elsewhere moves to the new last page.
  const lastPage = Math.max(1, Math.ceil(total / size));
  useEffect(() => {
    if (list.data && page > lastPage) setPage(lastPage);
  }, [list.data, page, lastPage, setPage]);
  const filtered = filters.entity.length + filters.owner.length + filters.version.length > 0;

  const toggle = (keys: string[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const k of keys)
        if (on) next.add(k);
        else next.delete(k);
      return next;
    });

  return (
    <>
      <PageHeader
        title="Dataviews"
        description="The dataviews of every entity."
        actions={
          // The Add button follows the entity rule (fleet §6): an admin with all access or Dataview_all.
          canChangeDataviews(claims) && (
            <Button component={Link} to="/dataview/new" leftSection={<IconPlus size={16} aria-hidden />}>
              Add Dataview
            </Button>
          )
        }
      />
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <DataviewFilters facets={facets.data} value={filters} onChange={setFilters} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          {selected.size > 0 && (
            <Group justify="space-between" mb="xs">
              <Text size="sm" aria-live="polite">
                {selected.size} selected
              </Text>
              <Button size="xs" variant="subtle" onClick={() => setSelected(new Set())}>
                Clear selection
              </Button>
            </Group>
          )}
          <DataviewTable
            landlord
            dataviews={rows}
            loading={list.isPending || list.isPlaceholderData}
            failed={list.isError}
            onRetry={() => void list.refetch()}
            actions={showLandlordActions(claims) ? actions : null}
            empty={{
              title: 'No Dataviews Found',
              description: filtered ? 'No dataview matches these filters.' : 'No entity has a dataview yet.',
            }}
            selected={selected}
            onSelect={(key, on) => toggle([key], on)}
            onSelectAll={(on) => toggle((rows ?? []).map(rowKey), on)}
          />
          <ListPagination
            page={page}
            size={size}
            sizes={DATAVIEW_PAGE_SIZES}
            total={total}
            noun={['dataview', 'dataviews']}
            sizeId="dataview-page-size"
            onPage={setPage}
            onSize={setSize}
          />
        </Grid.Col>
      </Grid>
    </>
  );
}
