import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Group } from '@fleet/shared/schemas/group';
import { AccessPanel } from '@/components/ui/access-panel.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { groupsApi } from '@/features/org/api/groups.ts';
import { Cell, OrgTable, type OrgColumn } from '@/features/org/components/org-table.tsx';
import { useOrgList } from '@/features/org/hooks/use-org-list.ts';
import { useOrgRights } from '@/features/org/hooks/use-org-rights.ts';
import { isForbidden } from '@/lib/api/api-error.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const COLUMNS: OrgColumn<Group>[] = [
  { header: 'Name', cell: (g) => g.name },
  {
    header: 'Capacity',
    cell: (g) => <Cell>{g.capacity === null ? `${g.devices} (no limit)` : `${g.devices} / ${g.capacity}`}</Cell>,
  },
  { header: 'Site', cell: (g) => <Cell>{g.location.site}</Cell> },
  { header: 'State', cell: (g) => <Cell>{g.state.current}</Cell> },
];

/** /dispenser: the entity's groups (fleet §2). */
export function GroupListPage() {
  useDocumentTitle('Groups');
  const { write } = useOrgRights('Group');
  const { list, deleting, onDelete } = useOrgList(groupsApi);
  // Refused (rights changed since sign-in): say so in words, not "could not be loaded".
  if (isForbidden(list.error)) return <AccessPanel area="groups" kind="none" />;
  return (
    <>
      <PageHeader
        title="Groups"
        description="Groups (dispensers) hold devices at a kiosk, up to their capacity."
        actions={
          write && (
            <Button component={Link} to="/dispenser/new" leftSection={<IconPlus size={16} aria-hidden />}>
              Add Group
            </Button>
          )
        }
      />
      <OrgTable
        what="group"
        editPath={(name) => `/dispenser/${encodeURIComponent(name)}`}
        columns={COLUMNS}
        rows={list.data}
        loading={list.isPending}
        failed={list.isError}
        onRetry={() => void list.refetch()}
        empty={{
          title: 'No groups yet',
          description: 'Add a group, then put devices in it from its screen or the device form.',
        }}
        onDelete={write ? (g) => void onDelete(g) : undefined}
        deleting={deleting}
      />
    </>
  );
}
