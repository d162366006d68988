import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { AccountCreateForm } from '@/features/accounts/components/account-create-form.tsx';
import { ENTITY_TYPES } from '@/features/accounts/components/subtypes.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /account/new: an account in the active entity; admin is not offered (core §2). */
export function AccountNewPage() {
  useDocumentTitle('New account');
  const navigate = useNavigate();
  const goBack = useGoBack('/account');
  return (
    <>
      <PageHeader title="New account" />
      <AccountCreateForm
        landlord={false}
        typeOptions={ENTITY_TYPES}
        defaultSubtype="developer"
        onCreated={() => void navigate('/account', { replace: true })}
        onCancel={goBack}
      />
    </>
  );
}
