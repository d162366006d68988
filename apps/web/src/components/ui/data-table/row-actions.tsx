import type { ReactNode } from 'react';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The icons at the end of a row (edit, delete), side by side. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      {children}
    </Group>
  );
}

type EditActionProps = {
  /** The tooltip: 'Edit', or 'Open' for a reader. */
  tooltip: string;
  /** What a screen reader hears: names the row, e.g. "Edit site lobby". */
  label: string;
} & ({ to: string; onClick?: never } | { onClick(): void; to?: never });

/** A row's pencil: a link to its edit screen, or a button that opens its editor. */
export function EditAction({ tooltip, label, to, onClick }: EditActionProps) {
  const icon = <IconPencil size={18} stroke={1.6} aria-hidden />;
  return (
    <Tooltip label={tooltip} withArrow>
      {to === undefined ? (
        <ActionIcon variant="subtle" aria-label={label} onClick={onClick}>
          {icon}
        </ActionIcon>
      ) : (
        <ActionIcon component={Link} to={to} variant="subtle" aria-label={label}>
          {icon}
        </ActionIcon>
      )}
    </Tooltip>
  );
}
