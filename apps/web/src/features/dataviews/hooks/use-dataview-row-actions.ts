import type { Dataview } from '@fleet/shared/schemas/dataview';
import { useNavigate } from 'react-router';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { builderUrl, editUrl } from '../api/dataview-paths.ts';
import { useDeleteDataview } from '../api/save-dataview.ts';
import type { DataviewRowHandlers } from '../components/dataview-row-actions.tsx';
import { downloadDataview } from '../utils/download-dataview.ts';

/** The row actions of both lists; the landlord's links carry the row's entity. */
export function useDataviewRowActions(landlord: boolean): DataviewRowHandlers {
  const navigate = useNavigate();
  const confirmDelete = useConfirmDelete();
  const remove = useDeleteDataview();
  const scoped = (d: Dataview) => (landlord ? d.entity : undefined);
  return {
    onDownload: (d) => void downloadDataview(d.entity, d.name),
    // A new window of its own: the designer is a full screen beside the list.
    onDesign: (d) => void window.open(builderUrl(d.name, scoped(d)), '_blank', 'noopener'),
    onEdit: (d) => void navigate(editUrl(d.name, scoped(d))),
    onDelete: (d) =>
      void (async () => {
        if (await confirmDelete()) remove.mutate({ entity: d.entity, name: d.name });
      })(),
    deleting: remove.isPending && remove.variables ? `${remove.variables.entity}/${remove.variables.name}` : null,
  };
}
