import { Table, Text } from '@mantine/core';
import type { Account } from '@fleet/shared/schemas/account';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { EditAction, RowActions } from '@/components/ui/data-table/row-actions.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import type { RowActions as AccountRowActions } from './row-actions.ts';
import { subtypeText } from './subtypes.ts';

interface AccountTableProps {
  accounts: Account[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  /** The landlord's list: 'Name' and an Entity column; the entity list says 'Username'. */
  landlord: boolean;
  actionsFor(account: Account): AccountRowActions;
  onEdit(account: Account): void;
  onDelete(account: Account): void;
  /** The name being deleted right now. */
  deleting: string | null;
}

/** The account lists of core §2: the landlord's (Name, Entity, Type, E-mail) and the entity's. */
export function AccountTable(props: AccountTableProps) {
  const { accounts, loading, failed, onRetry, landlord, actionsFor, onEdit, onDelete, deleting } = props;
  return (
    <DataTable
      columns={[
        { header: landlord ? 'Name' : 'Username' },
        landlord && { header: 'Entity' },
        { header: 'Type' },
        { header: 'E-mail' },
        { header: 'Actions', w: 100 },
      ]}
      items={accounts}
      loading={loading}
      failed={failed}
      errorTitle="The accounts could not be loaded."
      onRetry={onRetry}
      empty={<ListEmpty title="No accounts yet" description="Accounts you add appear here." />}
      minWidth={560}
      row={(account) => {
        const actions = actionsFor(account);
        return (
          <Table.Tr key={account.name}>
            <Table.Td>
              <Text fw={500} size="sm">
                {account.name}
              </Text>
            </Table.Td>
            {landlord && <Table.Td>{account.entity ?? ''}</Table.Td>}
            <Table.Td>{subtypeText(account.subtype)}</Table.Td>
            <Table.Td>{account.email}</Table.Td>
            <Table.Td>
              <RowActions>
                {actions.edit && (
                  <EditAction tooltip="Edit" label={`Edit account ${account.name}`} onClick={() => onEdit(account)} />
                )}
                {actions.remove && (
                  <DeleteAction
                    tooltip="Delete"
                    label={`Delete account ${account.name}`}
                    loading={deleting === account.name}
                    onClick={() => onDelete(account)}
                  />
                )}
              </RowActions>
            </Table.Td>
          </Table.Tr>
        );
      }}
    />
  );
}
