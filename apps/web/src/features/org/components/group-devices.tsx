import { useState } from 'react';
import { Anchor, Badge, Button, Group as Row, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DeviceSchema } from '@fleet/shared/schemas/device';
import type { Group } from '@fleet/shared/schemas/group';
import { listOf } from '@fleet/shared/schemas/list';
import { MESSAGES } from '@fleet/shared/messages';
import { api } from '@/lib/api/api.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { usePutDevice } from '../api/groups.ts';

const SHOWN = 50;

/**
 * The devices in a group and a way to put one in (`dispenser/{name}/put/{device}`); a full
 * group's refusal shows as the server's notice.
 */
export function GroupDevices({ group, writable }: { group: Group; writable: boolean }) {
  const [device, setDevice] = useState('');
  const [error, setError] = useState<string | undefined>();
  const put = usePutDevice(group.name);
  const members = useQuery({
    queryKey: ['devices', 'in-group', group.name, group.devices],
    queryFn: async ({ signal }) =>
      api.get(api.tenant('device'), {
        query: { group: group.name, limit: SHOWN, sort: 'name', order: 'asc' },
        signal,
        parse: (d) => listOf(DeviceSchema).parse(d),
      }),
  });
  const full = group.capacity !== null && group.devices >= group.capacity;

  const submit = () => {
    const id = device.trim();
    if (!/^[0-9a-f]{12}$/.test(id)) return setError(MESSAGES.deviceId);
    setError(undefined);
    put.mutate(id, {
      onSuccess: (answer) => {
        notifySuccess(answer.status);
        setDevice('');
      },
      onError: (err) => console.error('Device not put in the group:', err),
    });
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Row justify="space-between">
          <Title order={2} size="h4">
            Devices in this group
          </Title>
          <Badge variant="light" color={full ? 'red' : 'gray'}>
            {group.capacity === null ? `${group.devices} devices, no limit` : `${group.devices} of ${group.capacity}`}
          </Badge>
        </Row>
        {writable && (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <Row align="flex-start" gap="sm">
              <TextInput
                label="Device ID"
                placeholder="240ac40a2e48"
                description={full ? 'The group is full' : 'Puts the device in this group'}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                value={device}
                error={error}
                autoComplete="off"
                onChange={(event) => setDevice(event.currentTarget.value)}
              />
              <Button type="submit" mt={25} loading={put.isPending}>
                Put in group
              </Button>
            </Row>
          </form>
        )}
        <DataTable
          label="Devices in this group"
          columns={[{ header: 'Device ID' }, { header: 'Description' }]}
          items={members.data?.data}
          loading={members.isPending}
          failed={members.isError}
          errorTitle="The devices in this group could not be loaded."
          onRetry={() => void members.refetch()}
          empty={
            <Text c="dimmed" size="sm" p="sm">
              No devices in this group yet.
            </Text>
          }
          skeletonRows={2}
          minWidth={360}
          framed={false}
          look={{ verticalSpacing: 6 }}
          row={(d) => (
            <Table.Tr key={d.name}>
              <Table.Td>
                <Anchor component={Link} to={`/device/${d.name}`} ff="monospace" size="sm">
                  {d.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{d.description}</Text>
              </Table.Td>
            </Table.Tr>
          )}
        />
        {members.data && members.data.total > SHOWN && (
          <Anchor component={Link} to={`/device?group=${encodeURIComponent(group.name)}`} size="sm">
            All {members.data.total} devices in the device list
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}
