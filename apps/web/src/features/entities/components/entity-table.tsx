import { ActionIcon, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconDoorEnter, IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Entity } from '@fleet/shared/schemas/entity';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';

const COLUMNS = 3;

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
  let body;
  if (loading) body = <TableSkeletonRows columns={COLUMNS} />;
  else if (failed || !entities)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListError title="The entities could not be loaded." onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (entities.length === 0)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListEmpty
          title="No entities yet"
          description="Add an entity to give a customer its own accounts and devices."
        />
      </TableMessageRow>
    );
  else
    body = entities.map((entity) => (
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
          <Group gap={4} wrap="nowrap">
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
            <Tooltip label="Edit" withArrow>
              <ActionIcon
                component={Link}
                to={`/entity/${encodeURIComponent(entity.name)}`}
                variant="subtle"
                aria-label={`Edit entity ${entity.name}`}
              >
                <IconPencil size={18} stroke={1.6} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <DeleteAction
              tooltip="Delete"
              label={`Delete entity ${entity.name}`}
              loading={deleting === entity.name}
              onClick={() => onDelete(entity)}
            />
          </Group>
        </Table.Td>
      </Table.Tr>
    ));

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th w={130}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
