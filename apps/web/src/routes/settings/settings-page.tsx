import { Stack } from '@mantine/core';
import { ListError } from '@/components/ui/table-states.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useAccount } from '@/features/accounts/api/get-account.ts';
import { SettingsForm } from '@/features/accounts/components/settings-form.tsx';
import { PermanentTokenSection } from '@/features/tokens/components/permanent-token-section.tsx';
import { RequirementSwitch } from '@/features/two-factor/components/requirement-switch.tsx';
import { TwoFactorSection } from '@/features/two-factor/components/two-factor-section.tsx';
import { tenantPath } from '@/lib/api/api-client.ts';
import { mayChange } from '@fleet/shared/access/rule';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /settings: the signed-in account (core §2); a superadmin's calls use the plain paths. */
export function SettingsPage() {
  useDocumentTitle('Account settings');
  const current = useSession();
  const landlord = isLandlord(current.claims);
  const account = useAccount(landlord, current.username ?? '');

  if (account.isPending) return <PageLoader />;
  if (account.isError)
    return (
      <>
        <PageHeader title="Account settings" />
        <ListError title="Your account could not be loaded." onRetry={() => void account.refetch()} />
      </>
    );
  return (
    <>
      <PageHeader title="Account settings" description="Your own account." />
      <Stack gap="lg">
        <SettingsForm account={account.data} landlord={landlord} />
        <TwoFactorSection
          requirement={
            landlord ? (
              <RequirementSwitch path="two-factor-requirement" label="Require two-factor sign-in of superadmins" />
            ) : current.claims?.subtype === 'admin' && mayChange(current.claims, 'accounts') ? (
              <RequirementSwitch
                path={tenantPath(current.entity ?? '', 'two-factor-requirement')}
                label="Require two-factor sign-in of this entity's admins"
              />
            ) : null
          }
        />
        <PermanentTokenSection
          owner={{ name: account.data.name, entity: landlord ? null : account.data.entity }}
          viewer={landlord ? { landlord: true } : { landlord: false, entity: current.entity ?? '' }}
        />
      </Stack>
    </>
  );
}
