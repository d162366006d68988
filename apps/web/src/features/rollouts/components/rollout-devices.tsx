import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { ROLLOUT_DEVICE_STATES, type RolloutDevice, type RolloutDeviceState } from '@fleet/shared/schemas/rollout';
import { Link } from 'react-router';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListPagination } from '@/components/ui/list-pagination.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import classes from '@/components/ui/tones.module.css';
import { formatDateTime } from '@/lib/format/time.ts';
import { useRolloutDevices } from '../api/rollouts-api.ts';
import { RESULT_LABELS } from './rollout-labels.ts';

const RESULT_TONES: Record<RolloutDeviceState, string> = {
  waiting: 'gray',
  in_flight: 'blue',
  succeeded: 'green',
  failed: 'red',
  skipped: 'grape',
};
const RESULT_CHOICES = ROLLOUT_DEVICE_STATES.map((s) => ({ value: s, label: RESULT_LABELS[s] }));
const SIZES = [25, 50, 100] as const;

/** The rollout's devices with their result (each device's current attempt), by result or name; each links to its screen. */
export function RolloutDevices({ id, stages }: { id: string; stages: readonly string[] }) {
  const [state, setState] = useState<RolloutDeviceState | undefined>();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(SIZES[0]);
  const [typed] = useDebouncedValue(search.trim(), 250);
  const filter = { state, search: typed || undefined, limit: size, offset: (page - 1) * size };
  const devices = useRolloutDevices(id, filter);
  const filtered = state !== undefined || filter.search !== undefined;
  return (
    <Stack gap="sm">
      <Group gap="sm" align="end">
        <Select
          label="Result"
          placeholder="Any"
          clearable
          data={RESULT_CHOICES}
          value={state ?? null}
          onChange={(v) => {
            setState((v as RolloutDeviceState | null) ?? undefined);
            setPage(1);
          }}
          w={180}
        />
        <TextInput
          label="Device"
          placeholder="Name contains"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={220}
        />
      </Group>
      <DataTable
        label="Device results"
        columns={[
          { header: 'Device' },
          { header: 'Stage' },
          { header: 'Result' },
          { header: 'Attempt' },
          { header: 'Settled' },
        ]}
        items={devices.data?.data}
        loading={devices.isPending}
        refreshing={devices.isPlaceholderData}
        failed={devices.isError}
        errorTitle="The device results could not be loaded."
        onRetry={() => void devices.refetch()}
        empty={
          filtered ? (
            <ListEmpty title="No devices match these filters" description="Clear a filter to see more." />
          ) : (
            <ListEmpty title="No devices yet" description="The target's devices are listed once the rollout starts." />
          )
        }
        minWidth={640}
        look={{ verticalSpacing: 'xs', highlightOnHover: true }}
        row={(d) => <DeviceRow key={`${d.device}:${d.attempt}`} device={d} stages={stages} />}
      />
      {devices.data && devices.data.total > SIZES[0] && (
        <ListPagination
          page={page}
          size={size}
          sizes={SIZES}
          total={devices.data.total}
          noun={['device', 'devices']}
          sizeId="rollout-devices-size"
          onPage={setPage}
          onSize={(s) => {
            setSize(s);
            setPage(1);
          }}
        />
      )}
    </Stack>
  );
}

function DeviceRow({ device: d, stages }: { device: RolloutDevice; stages: readonly string[] }) {
  return (
    <Table.Tr data-device={d.device}>
      <Table.Td>
        <Link to={`/device/${encodeURIComponent(d.device)}`}>{d.device}</Link>
      </Table.Td>
      <Table.Td>{d.stage === null ? '—' : (stages[d.stage] ?? d.stage + 1)}</Table.Td>
      <Table.Td>
        <span className={`${classes.tone} ${classes.pill}`} data-tone={RESULT_TONES[d.state]}>
          {RESULT_LABELS[d.state]}
        </span>
        {d.error && (
          <Text size="xs" c="dimmed">
            {d.error}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{d.attempt}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {d.settled_at ? <time dateTime={d.settled_at}>{formatDateTime(d.settled_at)}</time> : '—'}
      </Table.Td>
    </Table.Tr>
  );
}
