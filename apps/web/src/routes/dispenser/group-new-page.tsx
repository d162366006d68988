import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { GroupForm } from '@/features/org/components/group-form.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /dispenser/new (fleet §2). */
export function GroupNewPage() {
  useDocumentTitle('New group');
  const navigate = useNavigate();
  const goBack = useGoBack('/dispenser');
  return (
    <>
      <PageHeader title="New group" />
      <GroupForm onSaved={() => void navigate('/dispenser')} onCancel={goBack} />
    </>
  );
}
