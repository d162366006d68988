import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { KioskForm } from '@/features/org/components/kiosk-form.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /kiosk/new. */
export function KioskNewPage() {
  useDocumentTitle('New kiosk');
  const navigate = useNavigate();
  const goBack = useGoBack('/kiosk');
  return (
    <>
      <PageHeader title="New kiosk" />
      <KioskForm onSaved={() => void navigate('/kiosk')} onCancel={goBack} />
    </>
  );
}
