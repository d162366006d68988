import { PageHeader } from '@/components/ui/page-header.tsx';
import { ListError } from '@/components/ui/table-states.tsx';

/** A device screen whose data failed to load (not a 404, which goes back): the page's title, why, and a retry. */
export function DeviceLoadError({ title, what, onRetry }: { title: string; what: string; onRetry(): void }) {
  return (
    <>
      <PageHeader title={title} />
      <ListError title={`The ${what} could not be loaded.`} onRetry={onRetry} />
    </>
  );
}
