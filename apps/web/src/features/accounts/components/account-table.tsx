import { ActionIcon, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { Account } from '@fleet/shared/schemas/account';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import type { RowActions } from './row-actions.ts';
import { subtypeText } from './subtypes.ts';

interface AccountTableProps {
  accounts: Account[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  /** The landlord's list: 'Name' and an Entity column; the entity list says 'Username'. */
  landlord: boolean;
  actionsFor(account: Account): RowActions;
  onEdit(account: Account): void;
  onDelete(account: Account): void;
  /** The name being deleted right now. */
  deleting: string | null;
}

/** The account lists of core §2: the landlord's (Name, Entity, Type, E-mail) and the entity's. */
export function AccountTable(props: AccountTableProps) {
  const { accounts, loading, failed, onRetry, landlord, actionsFor, onEdit, onDelete, deleting } = props;
  const columns = landlord ? 5 : 4;
  let body;
  if (loading) body = <TableSkeletonRows columns={columns} />;
  else if (failed || !accounts)
    body = (
      <TableMessageRow columns={columns}>
        <ListError title="The accounts could not be loaded." onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (accounts.length === 0)
    body = (
      <TableMessageRow columns={columns}>
        <ListEmpty title="No accounts yet" description="Accounts you add appear here." />
      </TableMessageRow>
    );
  else
    body = accounts.map((account) => {
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
            <Group gap={4} wrap="nowrap">
              {actions.edit && (
                <Tooltip label="Edit" withArrow>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Edit account ${account.name}`}
                    onClick={() => onEdit(account)}
                  >
                    <IconPencil size={18} stroke={1.6} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              )}
              {actions.remove && (
                <DeleteAction
                  tooltip="Delete"
                  label={`Delete account ${account.name}`}
                  loading={deleting === account.name}
                  onClick={() => onDelete(account)}
                />
              )}
            </Group>
          </Table.Td>
        </Table.Tr>
      );
    });

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{landlord ? 'Name' : 'Username'}</Table.Th>
              {landlord && <Table.Th>Entity</Table.Th>}
              <Table.Th>Type</Table.Th>
              <Table.Th>E-mail</Table.Th>
              <Table.Th w={100}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
