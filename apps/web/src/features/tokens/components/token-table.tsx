import { Table, Text } from '@mantine/core';
import type { PermanentToken } from '@fleet/shared/schemas/token';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format/time.ts';

const COLUMNS = 5;

/** The first characters of a hash: enough to tell tokens apart. */
export const shortHash = (hash: string) => (hash.length > 12 ? `${hash.slice(0, 12)}…` : hash);

interface TokenTableProps {
  tokens: PermanentToken[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  onRevoke(token: PermanentToken): void;
  revoking: string | null;
}

/** An account's tokens: description, hash, created, last used, and Revoke. */
export function TokenTable({ tokens, loading, failed, onRetry, onRevoke, revoking }: TokenTableProps) {
  let body;
  if (loading) body = <TableSkeletonRows columns={COLUMNS} rows={2} />;
  else if (failed || !tokens)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListError title="Failed to load tokens" onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (tokens.length === 0)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListEmpty title="No tokens yet" description="Generate one above to let a script call the API." />
      </TableMessageRow>
    );
  else
    body = tokens.map((token) => (
      <Table.Tr key={token.token_hash}>
        <Table.Td>
          {token.description || (
            <Text span c="dimmed" size="sm">
              No description
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Text span ff="monospace" size="sm" title={token.token_hash}>
            {shortHash(token.token_hash)}
          </Text>
        </Table.Td>
        <Table.Td title={formatDateTime(token.created_at)}>{formatDate(token.created_at)}</Table.Td>
        <Table.Td title={token.last_used ? formatDateTime(token.last_used) : undefined}>
          {token.last_used ? formatRelative(token.last_used) : 'Never'}
        </Table.Td>
        <Table.Td>
          <DeleteAction
            tooltip="Revoke"
            label={`Revoke token ${token.description || shortHash(token.token_hash)}`}
            loading={revoking === token.token_hash}
            onClick={() => onRevoke(token)}
          />
        </Table.Td>
      </Table.Tr>
    ));

  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" horizontalSpacing="sm" aria-busy={loading} aria-label="Permanent tokens">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th>Token</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th w={80}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
