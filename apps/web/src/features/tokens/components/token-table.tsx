import { Table, Text } from '@mantine/core';
import type { PermanentToken } from '@fleet/shared/schemas/token';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format/time.ts';

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
  return (
    <DataTable
      label="Permanent tokens"
      columns={[
        { header: 'Description' },
        { header: 'Token' },
        { header: 'Created' },
        { header: 'Last used' },
        { header: 'Actions', w: 80 },
      ]}
      items={tokens}
      loading={loading}
      failed={failed}
      errorTitle="Failed to load tokens"
      onRetry={onRetry}
      empty={<ListEmpty title="No tokens yet" description="Generate one above to let a script call the API." />}
      skeletonRows={2}
      minWidth={560}
      framed={false}
      look={{ verticalSpacing: 'xs', horizontalSpacing: 'sm' }}
      row={(token) => (
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
      )}
    />
  );
}
