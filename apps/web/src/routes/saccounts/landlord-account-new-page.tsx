import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { AccountCreateForm } from '@/features/accounts/components/account-create-form.tsx';
import { LANDLORD_CREATE_TYPES } from '@/features/accounts/components/subtypes.ts';
import { useEntities } from '@/features/entities/api/get-entities.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /saccounts/new: any account in any entity, or a superadmin (core §2). */
export function LandlordAccountNewPage() {
  useDocumentTitle('New account');
  const navigate = useNavigate();
  const goBack = useGoBack('/saccounts');
  const entities = useEntities();
  return (
    <>
      <PageHeader title="New account" />
      <AccountCreateForm
        landlord
        typeOptions={LANDLORD_CREATE_TYPES}
        defaultSubtype="admin"
        entities={entities.data}
        entitiesLoading={entities.isPending}
        onCreated={() => void navigate('/saccounts', { replace: true })}
        onCancel={goBack}
      />
    </>
  );
}
