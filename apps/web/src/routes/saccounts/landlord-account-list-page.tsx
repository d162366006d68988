import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Account } from '@fleet/shared/schemas/account';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useDeleteAccount } from '@/features/accounts/api/delete-account.ts';
import { useAccounts } from '@/features/accounts/api/get-accounts.ts';
import { AccountTable } from '@/features/accounts/components/account-table.tsx';
import { landlordRowActions } from '@/features/accounts/components/row-actions.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /saccounts: every account of every entity, for the landlord (core §2). */
export function LandlordAccountListPage() {
  useDocumentTitle('Accounts');
  const { username } = useSession();
  const accounts = useAccounts(true);
  const remove = useDeleteAccount(true);
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();

  const onDelete = async (account: Account) => {
    if (await confirmDelete()) remove.mutate(account.name);
  };

  return (
    <>
      <PageHeader
        title="Accounts"
        description="Superadmins and the accounts of every entity."
        actions={
          <Button component={Link} to="/saccounts/new" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Account
          </Button>
        }
      />
      <AccountTable
        landlord
        accounts={accounts.data}
        loading={accounts.isPending}
        failed={accounts.isError}
        onRetry={() => void accounts.refetch()}
        actionsFor={(account) => landlordRowActions(account, { name: username ?? '' })}
        onEdit={(account) => void navigate(`/saccounts/${encodeURIComponent(account.name)}`)}
        onDelete={(account) => void onDelete(account)}
        deleting={remove.isPending ? (remove.variables ?? null) : null}
      />
    </>
  );
}
