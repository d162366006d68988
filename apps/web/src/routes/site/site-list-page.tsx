import { Button } from '@mantine/core';
import { IconBuildingStore, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Site } from '@fleet/shared/schemas/site';
import { AccessPanel } from '@/components/ui/access-panel.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { sitesApi } from '@/features/org/api/sites.ts';
import { Cell, OrgTable, type OrgColumn } from '@/features/org/components/org-table.tsx';
import { useOrgList } from '@/features/org/hooks/use-org-list.ts';
import { useOrgRights } from '@/features/org/hooks/use-org-rights.ts';
import { isForbidden } from '@/lib/api/api-error.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const COLUMNS: OrgColumn<Site>[] = [
  { header: 'Name', cell: (s) => s.name },
  {
    header: 'Street and number',
    cell: (s) => <Cell>{[s.address.street, s.address.number].filter(Boolean).join(' ')}</Cell>,
  },
  { header: 'Postal Code', cell: (s) => <Cell>{s.address.postalcode}</Cell> },
  { header: 'Description', cell: (s) => <Cell>{s.description}</Cell> },
];

/** /site: the entity's sites (fleet §2), with the way to its kiosks. */
export function SiteListPage() {
  useDocumentTitle('Sites');
  const { write } = useOrgRights('Site');
  const { list, deleting, onDelete } = useOrgList(sitesApi);
  // Refused (rights changed since sign-in): say so in words, not "could not be loaded".
  if (isForbidden(list.error)) return <AccessPanel area="sites" kind="none" />;
  return (
    <>
      <PageHeader
        title="Sites"
        description="The places where the entity's kiosks and groups stand."
        actions={
          <>
            <Button
              component={Link}
              to="/kiosk"
              variant="default"
              leftSection={<IconBuildingStore size={16} aria-hidden />}
            >
              Kiosks
            </Button>
            {write && (
              <Button component={Link} to="/site/new" leftSection={<IconPlus size={16} aria-hidden />}>
                Add Site
              </Button>
            )}
          </>
        }
      />
      <OrgTable
        what="site"
        editPath={(name) => `/site/${encodeURIComponent(name)}`}
        columns={COLUMNS}
        rows={list.data}
        loading={list.isPending}
        failed={list.isError}
        onRetry={() => void list.refetch()}
        empty={{
          title: 'No sites yet',
          description: 'Add a site with its address and coordinates; kiosks and groups can then stand there.',
        }}
        onDelete={write ? (s) => void onDelete(s) : undefined}
        deleting={deleting}
      />
    </>
  );
}
