import type { ReactNode } from 'react';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';

interface UploadTableProps<T> {
  caption: string;
  /** Column titles; '' is the actions column, named for screen readers only. */
  headers: string[];
  rows: T[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  empty: { title: string; description: string };
  row(item: T): ReactNode;
}

/** The list of a files or firmware dialog: loading rows, the error with a retry, an empty state that says what to do. */
export function UploadTable<T>({ caption, headers, rows, loading, failed, onRetry, empty, row }: UploadTableProps<T>) {
  return (
    <DataTable
      label={caption}
      columns={headers.map((h) => (h === '' ? { header: 'Actions', hidden: true, ta: 'right' } : { header: h }))}
      // Not asked yet (the dialog closed) reads as empty, not as a failure.
      items={rows ?? (loading || failed ? undefined : [])}
      row={row}
      loading={loading}
      failed={failed}
      errorTitle={`Could not load the ${caption.toLowerCase()}`}
      onRetry={onRetry}
      empty={<ListEmpty title={empty.title} description={empty.description} />}
      skeletonRows={2}
      minWidth={560}
      maxHeight={320}
      framed={false}
      look={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs', fz: 'sm' }}
    />
  );
}
