import { Alert, Modal, ScrollArea, SimpleGrid } from '@mantine/core';
import { AREA_RULES } from '@fleet/shared/access/rule';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { ApiError } from '@/lib/api/api-error.ts';
import { useAccess } from '@/lib/session/use-access.ts';
import {
  useBeaconConfigs,
  useDeleteBeaconConfig,
  useSaveBeaconConfig,
  type BeaconFormBody,
} from '../api/beacon-api.ts';
import { useBeaconForm } from '../hooks/use-beacon-form.ts';
import { BeaconConfigList } from './beacon-config-list.tsx';
import { BeaconFormView } from './beacon-form.tsx';

/** Manage Beacons (fleet §2): the add/edit form beside the list of configured beacons. */
export function ManageBeaconsModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const configs = useBeaconConfigs(opened);
  const save = useSaveBeaconConfig();
  const remove = useDeleteBeaconConfig();
  const form = useBeaconForm();
  const confirm = useConfirmDelete();
  // Operators and infra read the configurations only (the shared access rule): no form, no edit or delete.
  const writable = useAccess('beacons') === 'change';

  const submit = () => {
    const { room_number, beacon_mac, ...rest } = form.values;
    const id = form.editing?.id;
    // In edit mode the MAC is not sent: it cannot change.
    const body: BeaconFormBody = { ...rest, ...(id ? {} : { beacon_mac }), room_number: room_number.trim() || null };
    save.mutate(
      { id, form: body },
      {
        onSuccess: () => form.reset(),
        onError: (err) => {
          if (!(err instanceof ApiError) || !err.details) return;
          form.setServerErrors(Object.fromEntries(Object.entries(err.details).map(([k, v]) => [k, v[0] ?? ''])));
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        form.reset();
        onClose();
      }}
      title="Manage Beacons"
      size={1080}
      scrollAreaComponent={ScrollArea.Autosize}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        {writable ? (
          <BeaconFormView form={form} saving={save.isPending} onSubmit={submit} />
        ) : (
          <Alert color="gray" variant="light" title="Read-only access">
            {`Your account can see the beacon configurations but not add or change them. ${AREA_RULES.beacons.ask}`}
          </Alert>
        )}
        <BeaconConfigList
          beacons={configs.data}
          loading={configs.isLoading}
          onEdit={writable ? form.edit : undefined}
          onDelete={
            writable
              ? async (b) => {
                  if (!(await confirm())) return;
                  remove.mutate(b.id, { onSuccess: () => form.editing?.id === b.id && form.reset() });
                }
              : undefined
          }
        />
      </SimpleGrid>
    </Modal>
  );
}
