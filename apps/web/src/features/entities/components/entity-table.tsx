import { ActionIcon, Table, Text, Tooltip } from '@mantine/core';
import { IconDoorEnter } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Entity } from '@fleet/shared/schemas/entity';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { EditAction, RowActions } from '@/components/ui/data-table/row-actions.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';

interface EntityTableProps {
  entities: Entity[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  onDelete(entity: Entity): void;
  /** The name being deleted right now; its button shows a spinner. */
  deleting: string | null;
}

/** The landlord's entities: Name, Description, and open (issue 25), edit and delete actions per row (core §2). */
export function EntityTable({ entities, loading, failed, onRetry, onDelete, deleting }: EntityTableProps) {
  return (
    <DataTable
      columns={[{ header: 'Name' }, { header: 'Description' }, { header: 'Actions', w: 130 }]}
      items={entities}
      loading={loading}
      failed={failed}
      errorTitle="The entities could not be loaded."
      onRetry={onRetry}
      empty={
        <ListEmpty
          title="No entities yet"
          description="Add an entity to give a customer its own accounts and devices."
        />
      }
      minWidth={480}
      row={(entity) => (
        <Table.Tr key={entity.name}>
          <Table.Td>
            <Text fw={500} size="sm">
              {entity.name}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm" c={entity.description ? undefined : 'dimmed'}>
              {entity.description || '—'}
            </Text>
          </Table.Td>
          <Table.Td>
            <RowActions>
              <Tooltip label="Open: look and act inside this entity" withArrow>
                <ActionIcon
                  component={Link}
                  to={`/account?entity=${encodeURIComponent(entity.name)}`}
                  variant="subtle"
                  aria-label={`Open entity ${entity.name}`}
                >
                  <IconDoorEnter size={18} stroke={1.6} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <EditAction
                tooltip="Edit"
                label={`Edit entity ${entity.name}`}
                to={`/entity/${encodeURIComponent(entity.name)}`}
              />
              <DeleteAction
                tooltip="Delete"
                label={`Delete entity ${entity.name}`}
                loading={deleting === entity.name}
                onClick={() => onDelete(entity)}
              />
            </RowActions>
          </Table.Td>
        </Table.Tr>
      )}
    />
  );
}
