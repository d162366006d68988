import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';

interface DeleteActionProps {
  /** The tooltip: 'Delete', 'Revoke'. */
  tooltip: string;
  /** What a screen reader hears: names the row, e.g. "Delete account ops_dev". */
  label: string;
  loading: boolean;
  onClick(): void;
}

/** The red trash button of a table row; the caller confirms before anything is removed. */
export function DeleteAction({ tooltip, label, loading, onClick }: DeleteActionProps) {
  return (
    <Tooltip label={tooltip} withArrow>
      <ActionIcon variant="subtle" color="red" aria-label={label} loading={loading} onClick={onClick}>
        <IconTrash size={18} stroke={1.6} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
