import { Stack } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { mayManageAccount } from '@fleet/shared/access/rule';
import { ListError } from '@/components/ui/table-states.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useAccount } from '@/features/accounts/api/get-account.ts';
import { AccountEditForm } from '@/features/accounts/components/account-edit-form.tsx';
import { ENTITY_TYPES, LANDLORD_EDIT_TYPES, withCurrentType } from '@/features/accounts/components/subtypes.ts';
import { PermanentTokenSection } from '@/features/tokens/components/permanent-token-section.tsx';
import { tenantPath } from '@/lib/api/api-client.ts';
import { ResetTwoFactor } from '@/features/two-factor/components/reset-two-factor.tsx';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** What a viewer who may read an account but not change it reads instead of 'Edit account'. */
export const READ_ONLY_ACCOUNT_TEXT = 'Your account type can see this account but not change it.';

/**
 * Account edit for both roles (core §2): the form, then the permanent tokens. The landlord's
 * version (/saccounts/{name}) also shows the entity and may turn an account into an admin. An
 * account the viewer may not manage is titled 'Account {name}' and shown without any control
 * that changes it.
 */
export function AccountEditView({ landlord }: { landlord: boolean }) {
  const { name = '' } = useParams();
  const current = useSession();
  const entity = useActiveEntity();
  const list = landlord ? '/saccounts' : '/account';
  const account = useAccount(landlord, name);
  const goBack = useGoBack(list);
  const navigate = useNavigate();
  useBackWhenMissing(name === '' || isNotFound(account.error), list);

  // Another's account the viewer may not manage (the shared access rule) is shown read-only,
  // without tokens, and titled so; one's own account is always one's to edit.
  const manageable =
    account.data !== undefined &&
    (account.data.name === current.username ||
      (current.claims !== null && mayManageAccount(current.claims, account.data)));
  useDocumentTitle(manageable ? 'Edit account' : `Account ${name}`);

  if (account.isPending || isNotFound(account.error)) return <PageLoader />;
  if (account.isError)
    return (
      <>
        <PageHeader title={`Account ${name}`} />
        <ListError title="The account could not be loaded." onRetry={() => void account.refetch()} />
      </>
    );

  const { data } = account;
  const ownAccount = data.name === current.username;
  // A superadmin stays one (no entity to fall back on), and nobody changes their own type.
  const typeOptions =
    data.subtype === 'sadmin' || ownAccount
      ? null
      : withCurrentType(landlord ? LANDLORD_EDIT_TYPES : ENTITY_TYPES, data.subtype);
  return (
    <>
      {manageable ? (
        <PageHeader title="Edit account" description={data.name} />
      ) : (
        <PageHeader title={`Account ${data.name}`} description={READ_ONLY_ACCOUNT_TEXT} />
      )}
      <Stack gap="lg">
        <AccountEditForm
          key={data.name}
          account={data}
          landlord={landlord}
          typeOptions={typeOptions}
          showEntity={landlord}
          ownAccount={ownAccount}
          readOnly={!manageable}
          onSaved={() => void navigate(list)}
          onCancel={goBack}
        />
        {manageable && (
          <PermanentTokenSection
            owner={{ name: data.name, entity: data.entity }}
            viewer={landlord ? { landlord: true } : { landlord: false, entity }}
          />
        )}
        {manageable && !ownAccount && (
          <ResetTwoFactor
            name={data.name}
            accountPath={
              landlord
                ? `account/${encodeURIComponent(data.name)}`
                : tenantPath(entity, `account/${encodeURIComponent(data.name)}`)
            }
          />
        )}
      </Stack>
    </>
  );
}
