import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { SiteForm } from '@/features/org/components/site-form.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /site/new (fleet §2). */
export function SiteNewPage() {
  useDocumentTitle('New site');
  const navigate = useNavigate();
  const goBack = useGoBack('/site');
  return (
    <>
      <PageHeader title="New site" />
      <SiteForm onSaved={() => void navigate('/site')} onCancel={goBack} />
    </>
  );
}
