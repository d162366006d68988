import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Group, Loader, SegmentedControl, Select, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { FLEET_HEALTH_WINDOWS, type FleetHealthWindow } from '@fleet/shared/schemas/fleet-health';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { ListEmpty, ListError } from '@/components/ui/table-states.tsx';
import { useFleetHealth } from '../api/fleet-health-api.ts';
import { HistorySection } from './history-section.tsx';
import { NowFigures } from './now-figures.tsx';

const WINDOW_CHOICES = Object.entries(FLEET_HEALTH_WINDOWS).map(([value, w]) => ({ value, label: w.label }));

interface FleetHealthProps {
  /** The superadmin's screen across entities (with the entity filter), else the active entity's. */
  landlord: boolean;
  /** The entities the superadmin's filter offers. */
  entities?: readonly string[];
}

/**
 * The fleet health screen (issue 27): the devices now, each figure opening the device list
 * filtered to exactly the devices it counts, and the history of the chosen window.
 */
export function FleetHealth({ landlord, entities }: FleetHealthProps) {
  const [window, setWindow] = useState<FleetHealthWindow>('24h');
  const [entity, setEntity] = useState<string | null>(null);
  const health = useFleetHealth(landlord, window, entity ?? undefined);
  const data = health.data;

  return (
    <>
      <PageHeader
        title="Fleet health"
        description={
          landlord
            ? 'Devices across the fleet now and over time. Every bar opens the devices it counts.'
            : 'Devices of this entity now and over time. Every bar opens the devices it counts.'
        }
        actions={health.isFetching && !health.isPending ? <Loader size="xs" aria-label="Refreshing" /> : undefined}
      />
      <Group gap="sm" mb="md" wrap="wrap">
        {landlord && (
          <Select
            aria-label="Entity"
            placeholder="All entities"
            data={[...(entities ?? [])]}
            value={entity}
            onChange={setEntity}
            clearable
            searchable
            w={220}
          />
        )}
        <SegmentedControl
          aria-label="History window"
          data={WINDOW_CHOICES}
          value={window}
          onChange={(v) => setWindow(v as FleetHealthWindow)}
        />
      </Group>
      {health.isPending ? (
        <Stack gap="md" aria-busy>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={84} radius="md" />
            ))}
          </SimpleGrid>
          <Skeleton height={180} radius="md" />
        </Stack>
      ) : !data ? (
        <ListError title="The fleet health could not be loaded." onRetry={() => void health.refetch()} />
      ) : data.devices.total === 0 ? (
        <ListEmpty
          title={
            landlord && entity
              ? `No devices yet: ${entity} has none.`
              : 'No devices yet: add devices and they show here as they report.'
          }
          action={
            landlord ? undefined : (
              <Button component={Link} to="/device/new" variant="default">
                Add Device
              </Button>
            )
          }
        />
      ) : (
        <Stack gap="md">
          <NowFigures health={data} landlord={landlord} entity={entity ?? undefined} />
          <HistorySection health={data} />
        </Stack>
      )}
    </>
  );
}
