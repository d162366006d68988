import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { notifySuccess } from '@/lib/notify.ts';
import type { namedResource } from '../api/named-resource.ts';

/**
 * A list screen's data and its confirmed delete (core §5's dialog). A refusal (409: still used,
 * with what uses it) shows as the server's notice.
 */
export function useOrgList<T extends { name: string }>(resource: ReturnType<typeof namedResource<T>>) {
  const list = resource.useList();
  const remove = resource.useDelete();
  const confirmDelete = useConfirmDelete();
  return {
    list,
    deleting: remove.isPending ? (remove.variables ?? null) : null,
    async onDelete(row: T) {
      if (!(await confirmDelete())) return;
      remove.mutate(row.name, {
        onSuccess: (status) => notifySuccess(status || 'Success'),
        onError: (error) => console.error('Not deleted:', error),
      });
    },
  };
}
