import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { notifyFailure } from '@/lib/notify-failure.ts';
import { useAuditLog } from '../api/audit-api.ts';
import { exportAudit, type ExportFormat } from '../api/export-audit.ts';
import { isFiltered, NO_AUDIT_FILTERS, type AuditFilters } from '../utils/audit-query.ts';
import { AuditFilterBar } from './audit-filters.tsx';
import { AuditTable } from './audit-table.tsx';

const SIZES = [25, 50, 100] as const;

interface AuditLogProps {
  /** The superadmin's log of every entity (with the entity filter), else the active entity's. */
  landlord: boolean;
  /** The entities the superadmin's filter offers. */
  entities?: readonly string[];
  now?: () => number;
}

/** The audit log screen: filters, the paged entries and Export CSV / Export JSON of the filtered whole. */
export function AuditLog({ landlord, entities, now }: AuditLogProps) {
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(50);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const log = useAuditLog(landlord, filters, page, size);
  const entries = log.data?.data;

  const download = (format: ExportFormat) => {
    setExporting(format);
    exportAudit(landlord, filters, format)
      .catch(notifyFailure)
      .finally(() => setExporting(null));
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          landlord
            ? 'Every change and sign-in across the fleet, newest first.'
            : 'Every change and sign-in in this entity, newest first.'
        }
        actions={
          <Group gap="sm">
            {(['csv', 'json'] as const).map((format) => (
              <Button
                key={format}
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={exporting === format}
                disabled={exporting !== null && exporting !== format}
                onClick={() => download(format)}
              >
                Export {format.toUpperCase()}
              </Button>
            ))}
          </Group>
        }
      />
      <AuditFilterBar
        filters={filters}
        entities={landlord ? (entities ?? []) : undefined}
        now={now}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <AuditTable
        entries={entries}
        landlord={landlord}
        loading={log.isPending}
        refreshing={log.isPlaceholderData}
        failed={log.isError && !entries}
        filtered={isFiltered(filters)}
        onRetry={() => void log.refetch()}
      />
      {entries && entries.length > 0 && (
        <ListPagination
          page={page}
          size={size}
          sizes={SIZES}
          total={log.data?.total ?? 0}
          totalIsLowerBound={log.data?.total_is_lower_bound ?? false}
          noun={['entry', 'entries']}
          sizeId="audit-page-size"
          onPage={setPage}
          onSize={(next) => {
            setSize(next);
            setPage(1);
          }}
        />
      )}
    </>
  );
}
