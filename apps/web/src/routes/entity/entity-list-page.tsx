import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Entity } from '@fleet/shared/schemas/entity';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { accountKeys } from '@/features/accounts/api/account-keys.ts';
import { useDeleteEntity } from '@/features/entities/api/delete-entity.ts';
import { useEntities } from '@/features/entities/api/get-entities.ts';
import { EntityTable } from '@/features/entities/components/entity-table.tsx';
import { notifySuccess } from '@/lib/notify.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /entity: the landlord's entities (core §2). */
export function EntityListPage() {
  useDocumentTitle('Entities');
  const entities = useEntities();
  const remove = useDeleteEntity();
  const confirmDelete = useConfirmDelete();
  const queryClient = useQueryClient();

  const onDelete = async (entity: Entity) => {
    if (!(await confirmDelete())) return;
    remove.mutate(entity.name, {
      onSuccess: (status) => {
        notifySuccess(status || 'Success');
        // The entity's accounts went with it.
        void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      },
      onError: (error) => console.error('Entity not deleted:', error),
    });
  };

  return (
    <>
      <PageHeader
        title="Entities"
        description="Each entity is a customer with its own accounts, sites and devices."
        actions={
          <Button component={Link} to="/entity/new" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Entity
          </Button>
        }
      />
      <EntityTable
        entities={entities.data}
        loading={entities.isPending}
        failed={entities.isError}
        onRetry={() => void entities.refetch()}
        onDelete={(entity) => void onDelete(entity)}
        deleting={remove.isPending ? (remove.variables ?? null) : null}
      />
    </>
  );
}
