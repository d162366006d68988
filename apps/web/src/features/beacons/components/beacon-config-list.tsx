import { ActionIcon, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { BeaconConfig } from '@fleet/shared/schemas/beacon';
import { TonePill } from './tone-pill.tsx';

interface Props {
  beacons: BeaconConfig[] | undefined;
  loading: boolean;
  /** Edit and delete; absent for an account that may only read beacon configurations. */
  onEdit?(config: BeaconConfig): void;
  onDelete?(config: BeaconConfig): void;
}

/** The configured beacons in the Manage Beacons modal, each with edit and delete. */
export function BeaconConfigList({ beacons, loading, onEdit, onDelete }: Props) {
  return (
    <section aria-labelledby="beacon-list-title">
      <Title order={3} size="h5" id="beacon-list-title" mb="sm">
        Configured beacons{beacons ? ` (${beacons.length})` : ''}
      </Title>
      {loading && !beacons && <Text c="dimmed">Loading beacon configurations…</Text>}
      {beacons?.length === 0 && (
        <Text c="dimmed" size="sm">
          No beacon configured yet. Add one with the form: its sightings then appear on this screen.
        </Text>
      )}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {beacons?.map((b) => (
          <Card key={b.id} withBorder padding="sm" radius="md" component="li" data-testid="beacon-config">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Text fw={600}>{b.patient_name}</Text>
                  <TonePill tone={b.active ? 'green' : 'gray'}>{b.active ? 'Active' : 'Inactive'}</TonePill>
                </Group>
                <Text size="xs" c="dimmed" ff="monospace">
                  {b.beacon_mac} · {b.room_number ? `Room ${b.room_number}` : 'No room'} · threshold {b.rssi_threshold}{' '}
                  dBm
                </Text>
                <Text size="sm">{b.medications_text}</Text>
                {b.notes && (
                  <Text size="xs" c="dimmed">
                    {b.notes}
                  </Text>
                )}
              </div>
              {onEdit && onDelete && (
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`Edit ${b.patient_name}`} onClick={() => onEdit(b)}>
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${b.patient_name}`}
                    onClick={() => onDelete(b)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              )}
            </Group>
          </Card>
        ))}
      </Stack>
    </section>
  );
}
