import { useNavigate } from 'react-router';
import { sitesApi } from '@/features/org/api/sites.ts';
import { OrgEditView } from '@/features/org/components/org-edit-view.tsx';
import { SiteForm } from '@/features/org/components/site-form.tsx';
import { useOrgRights } from '@/features/org/hooks/use-org-rights.ts';
import { UploadButtons } from '@/features/files/components/upload-buttons.tsx';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';

/** /site/{name} (fleet §2). With its Files and Firmwares buttons (issue 11). */
export function SiteEditPage() {
  const navigate = useNavigate();
  const goBack = useGoBack('/site');
  const { write } = useOrgRights('Site');
  return (
    <OrgEditView
      resource={sitesApi}
      title={write ? 'Edit site' : 'Site'}
      list="/site"
      render={(site) => (
        <SiteForm
          key={site.name}
          site={site}
          readOnly={!write}
          actions={<UploadButtons target={{ level: 'site', id: site.id, name: site.name }} />}
          onSaved={() => void navigate('/site')}
          onCancel={goBack}
        />
      )}
    />
  );
}
