import type { Area } from '@fleet/shared/access/rule';
import { AccessPanel } from '@/components/ui/access-panel.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { ListError } from '@/components/ui/table-states.tsx';
import { isForbidden } from '@/lib/api/api-error.ts';

interface DeviceLoadErrorProps {
  title: string;
  what: string;
  /** The failure: a 403 is a missing right, said in words (no retry can help). */
  error: unknown;
  /** The access rule's area the screen belongs to. */
  area: Area;
  onRetry(): void;
}

/**
 * A device screen whose data failed to load (not a 404, which goes back): the page's title, why,
 * and a retry; or, when the server refused the read (rights changed since the screen was offered),
 * the access panel instead of a retry that can never succeed.
 */
export function DeviceLoadError({ title, what, error, area, onRetry }: DeviceLoadErrorProps) {
  if (isForbidden(error)) return <AccessPanel area={area} kind="none" title={title} />;
  return (
    <>
      <PageHeader title={title} />
      <ListError title={`The ${what} could not be loaded.`} onRetry={onRetry} />
    </>
  );
}
