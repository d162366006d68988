import { useNavigate } from 'react-router';
import { kiosksApi } from '@/features/org/api/kiosks.ts';
import { KioskForm } from '@/features/org/components/kiosk-form.tsx';
import { OrgEditView } from '@/features/org/components/org-edit-view.tsx';
import { useOrgRights } from '@/features/org/hooks/use-org-rights.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';

/** /kiosk/{name}. */
export function KioskEditPage() {
  const navigate = useNavigate();
  const goBack = useGoBack('/kiosk');
  const { write } = useOrgRights('Site');
  return (
    <OrgEditView
      resource={kiosksApi}
      title={write ? 'Edit kiosk' : 'Kiosk'}
      list="/kiosk"
      render={(kiosk) => (
        <KioskForm
          key={kiosk.name}
          kiosk={kiosk}
          readOnly={!write}
          onSaved={() => void navigate('/kiosk')}
          onCancel={goBack}
        />
      )}
    />
  );
}
