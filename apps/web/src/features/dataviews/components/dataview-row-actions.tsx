import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconDownload, IconLayoutDashboard, IconPencil } from '@tabler/icons-react';
import type { Dataview } from '@fleet/shared/schemas/dataview';
import { DeleteAction } from '@/components/ui/delete-action.tsx';

export interface DataviewRowHandlers {
  onDownload(dataview: Dataview): void;
  onDesign(dataview: Dataview): void;
  onEdit(dataview: Dataview): void;
  onDelete(dataview: Dataview): void;
  /** `entity/name` being deleted right now. */
  deleting: string | null;
}

/** A row's actions (fleet §2): download JSON, open the designer in a new window, edit, delete. */
export function DataviewRowActions({ dataview, ...h }: DataviewRowHandlers & { dataview: Dataview }) {
  const n = dataview.name;
  const icon = (label: string, tip: string, onClick: () => void, Icon: typeof IconPencil) => (
    <Tooltip label={tip} withArrow>
      <ActionIcon variant="subtle" aria-label={label} onClick={onClick}>
        <Icon size={18} stroke={1.6} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Group gap={4} wrap="nowrap">
      {icon(`Download JSON of dataview ${n}`, 'Download JSON', () => h.onDownload(dataview), IconDownload)}
      {icon(`Open designer for dataview ${n}`, 'Open designer', () => h.onDesign(dataview), IconLayoutDashboard)}
      {icon(`Edit dataview ${n}`, 'Edit', () => h.onEdit(dataview), IconPencil)}
      <DeleteAction
        tooltip="Delete"
        label={`Delete dataview ${n}`}
        loading={h.deleting === `${dataview.entity}/${n}`}
        onClick={() => h.onDelete(dataview)}
      />
    </Group>
  );
}
