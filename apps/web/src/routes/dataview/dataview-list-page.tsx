import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useDataviews } from '@/features/dataviews/api/get-dataviews.ts';
import { DataviewTable } from '@/features/dataviews/components/dataview-table.tsx';
import { useDataviewRowActions } from '@/features/dataviews/hooks/use-dataview-row-actions.ts';
import { canChangeDataviews } from '@/features/dataviews/utils/dataview-permissions.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /dataview: the active entity's dataviews, refreshed every 30 s (fleet §2, §9). */
export function DataviewListPage() {
  useDocumentTitle('Dataviews');
  const current = useSession();
  const entity = useActiveEntity();
  const list = useDataviews(entity);
  const writable = canChangeDataviews(current.claims);
  const actions = useDataviewRowActions(false);
  return (
    <>
      <PageHeader
        title="Dataviews"
        description={`The dataviews of ${entity}.`}
        actions={
          writable && (
            <Button component={Link} to="/dataview/new" leftSection={<IconPlus size={16} aria-hidden />}>
              Add Dataview
            </Button>
          )
        }
      />
      <DataviewTable
        landlord={false}
        dataviews={list.data?.data}
        loading={list.isPending}
        failed={list.isError}
        onRetry={() => void list.refetch()}
        actions={writable ? actions : null}
        empty={{
          title: 'No Dataviews Found',
          description: writable
            ? 'Add a dataview to describe what a device shows.'
            : 'Dataviews you may read appear here.',
        }}
      />
    </>
  );
}
