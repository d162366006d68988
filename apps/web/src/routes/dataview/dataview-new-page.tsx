import { Navigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useDataviewAccountChoices } from '@/features/dataviews/api/get-dataview.ts';
import { useCreateDataview } from '@/features/dataviews/api/save-dataview.ts';
import { DataviewForm } from '@/features/dataviews/components/dataview-form.tsx';
import { useDataviewEntity } from '@/features/dataviews/hooks/use-dataview-entity.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /dataview/new: add a dataview to the active entity (the landlord's: `?entity=`). */
export function DataviewNewPage() {
  useDocumentTitle('New dataview');
  const { entity, landlord, list } = useDataviewEntity();
  const me = useSession().username ?? '';
  const accounts = useDataviewAccountChoices(entity);
  const create = useCreateDataview(entity);
  const goBack = useGoBack(list);
  if (entity === '') return <Navigate to={list} replace />;
  if (accounts.isPending) return <PageLoader />;
  const choices = accounts.data ?? [];
  return (
    <>
      <PageHeader title="New dataview" description={landlord ? `In entity ${entity}` : undefined} />
      <DataviewForm
        accounts={choices}
        defaultOwner={choices.includes(me) ? me : undefined}
        saving={create.isPending}
        onSubmit={async (document) => {
          await create.mutateAsync(document);
          goBack();
        }}
        onCancel={goBack}
      />
    </>
  );
}
