import { Button } from '@mantine/core';
import { IconMapPin, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Kiosk } from '@fleet/shared/schemas/kiosk';
import { AccessPanel } from '@/components/ui/access-panel.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { kiosksApi } from '@/features/org/api/kiosks.ts';
import { Cell, OrgTable, type OrgColumn } from '@/features/org/components/org-table.tsx';
import { useOrgList } from '@/features/org/hooks/use-org-list.ts';
import { useOrgRights } from '@/features/org/hooks/use-org-rights.ts';
import { isForbidden } from '@/lib/api/api-error.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const COLUMNS: OrgColumn<Kiosk>[] = [
  { header: 'Name', cell: (k) => k.name },
  { header: 'Site', cell: (k) => <Cell>{k.location.site}</Cell> },
  { header: 'Floor', cell: (k) => <Cell>{k.location.floor}</Cell> },
  { header: 'Description', cell: (k) => <Cell>{k.description}</Cell> },
  { header: 'State', cell: (k) => <Cell>{k.state.current}</Cell> },
];

/** /kiosk: the entity's kiosks (fleet §2 names the screen; we register it, reached from Sites). */
export function KioskListPage() {
  useDocumentTitle('Kiosks');
  const { write } = useOrgRights('Site');
  const { list, deleting, onDelete } = useOrgList(kiosksApi);
  // Refused (rights changed since sign-in): say so in words, not "could not be loaded".
  if (isForbidden(list.error)) return <AccessPanel area="sites" kind="none" />;
  return (
    <>
      <PageHeader
        title="Kiosks"
        description="Where devices are handed out and returned; a kiosk stands at a site or at its own coordinates."
        actions={
          <>
            <Button component={Link} to="/site" variant="default" leftSection={<IconMapPin size={16} aria-hidden />}>
              Sites
            </Button>
            {write && (
              <Button component={Link} to="/kiosk/new" leftSection={<IconPlus size={16} aria-hidden />}>
                Add Kiosk
              </Button>
            )}
          </>
        }
      />
      <OrgTable
        what="kiosk"
        editPath={(name) => `/kiosk/${encodeURIComponent(name)}`}
        columns={COLUMNS}
        rows={list.data}
        loading={list.isPending}
        failed={list.isError}
        onRetry={() => void list.refetch()}
        empty={{ title: 'No kiosks yet', description: 'Add a kiosk; groups of devices are then placed at it.' }}
        onDelete={write ? (k) => void onDelete(k) : undefined}
        deleting={deleting}
      />
    </>
  );
}
