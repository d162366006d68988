import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { EntityForm } from '@/features/entities/components/entity-form.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /entity/new (core §2). */
export function EntityNewPage() {
  useDocumentTitle('New entity');
  const navigate = useNavigate();
  const goBack = useGoBack('/entity');
  return (
    <>
      <PageHeader title="New entity" />
      <EntityForm onCreated={() => void navigate('/entity', { replace: true })} onCancel={goBack} />
    </>
  );
}
