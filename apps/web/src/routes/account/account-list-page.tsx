import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Account } from '@fleet/shared/schemas/account';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useDeleteAccount } from '@/features/accounts/api/delete-account.ts';
import { useAccounts } from '@/features/accounts/api/get-accounts.ts';
import { AccountTable } from '@/features/accounts/components/account-table.tsx';
import { canManageAccounts, entityRowActions, type Viewer } from '@/features/accounts/components/row-actions.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /account: the active entity's accounts (core §2). */
export function AccountListPage() {
  useDocumentTitle('Accounts');
  const current = useSession();
  const entity = useActiveEntity();
  const accounts = useAccounts(false);
  const remove = useDeleteAccount(false);
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();
  const viewer: Viewer = {
    name: current.username ?? '',
    subtype: current.claims?.subtype ?? 'developer',
    permissions: current.claims?.permissions ?? [],
  };

  const onDelete = async (account: Account) => {
    if (await confirmDelete()) remove.mutate(account.name);
  };

  return (
    <>
      <PageHeader
        title="Accounts"
        description={`The accounts of ${entity || 'this entity'}.`}
        actions={
          canManageAccounts(viewer) && (
            <Button component={Link} to="/account/new" leftSection={<IconPlus size={16} aria-hidden />}>
              Add Account
            </Button>
          )
        }
      />
      <AccountTable
        landlord={false}
        accounts={accounts.data}
        loading={accounts.isPending}
        failed={accounts.isError}
        onRetry={() => void accounts.refetch()}
        actionsFor={(account) => entityRowActions(account, viewer)}
        onEdit={(account) => void navigate(`/account/${encodeURIComponent(account.name)}`)}
        onDelete={(account) => void onDelete(account)}
        deleting={remove.isPending ? (remove.variables ?? null) : null}
      />
    </>
  );
}
