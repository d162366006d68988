import { useParams } from 'react-router';
import type { DataviewUpdateSet } from '@fleet/shared/schemas/dataview';
import { ListError } from '@/components/ui/table-states.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useDataview, useDataviewAccountChoices } from '@/features/dataviews/api/get-dataview.ts';
import { builderUrl } from '@/features/dataviews/api/dataview-paths.ts';
import { useUpdateDataview } from '@/features/dataviews/api/save-dataview.ts';
import { DataviewForm } from '@/features/dataviews/components/dataview-form.tsx';
import { useDataviewEntity } from '@/features/dataviews/hooks/use-dataview-entity.ts';
import { downloadDataview } from '@/features/dataviews/utils/download-dataview.ts';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useAccess } from '@/lib/session/use-access.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /dataview/{name}: edit, download and open the designer (fleet §2). An unknown name goes back. */
export function DataviewEditPage() {
  // An account that may read but not change dataviews sees the form read-only (the shared access rule).
  const editable = useAccess('dataviews') === 'change';
  const title = editable ? 'Edit dataview' : 'Dataview';
  useDocumentTitle(title);
  const { name = '' } = useParams();
  const { entity, landlord, list } = useDataviewEntity();
  const dataview = useDataview(entity, name);
  const accounts = useDataviewAccountChoices(entity);
  const update = useUpdateDataview(entity, name);
  const goBack = useGoBack(list);
  useBackWhenMissing(name === '' || entity === '' || isNotFound(dataview.error), list);

  if (dataview.isPending || accounts.isPending || isNotFound(dataview.error)) return <PageLoader />;
  if (dataview.isError)
    return (
      <>
        <PageHeader title={title} />
        <ListError title="The dataview could not be loaded." onRetry={() => void dataview.refetch()} />
      </>
    );
  const before = dataview.data;
  return (
    <>
      <PageHeader title={title} description={landlord ? `${before.name} in entity ${entity}` : before.name} />
      <DataviewForm
        key={before.updated_at}
        dataview={before}
        accounts={accounts.data ?? []}
        saving={update.isPending}
        readOnly={!editable}
        onSubmit={async (doc) => {
          // Only what changed is sent; an unchanged name is dropped (fleet §5).
          const set: DataviewUpdateSet = {};
          if (doc.name !== before.name) set.name = doc.name;
          if (doc.description !== before.description) set.description = doc.description;
          if (doc.version !== before.version) set.version = doc.version;
          if (doc.owner !== before.owner) set.owner = doc.owner;
          const sameAccounts = [...doc.authorized_accounts].sort().join() === before.authorized_accounts.join();
          if (!sameAccounts) set.authorized_accounts = doc.authorized_accounts;
          if (JSON.stringify(doc.content) !== JSON.stringify(before.content)) set.content = doc.content as never;
          if (Object.keys(set).length > 0) await update.mutateAsync(set);
          // Back to the list as it was (the landlord's keeps its filters and page).
          goBack();
        }}
        onCancel={goBack}
        onDownload={editable ? () => void downloadDataview(entity, before.name) : undefined}
        onDesign={
          editable
            ? () => void window.open(builderUrl(before.name, landlord ? entity : undefined), '_blank', 'noopener')
            : undefined
        }
      />
    </>
  );
}
