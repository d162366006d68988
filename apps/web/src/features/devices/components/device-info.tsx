import type { ReactNode } from 'react';
import { DataList, Group, Paper, Text, Title } from '@mantine/core';
import type { Device } from '@fleet/shared/schemas/device';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { useNow } from '@/lib/use-now.ts';
import { commandAvailability } from '@/lib/device/command-availability.ts';
import { isUnresponsive } from '@/lib/device/device-health.ts';
import { AsleepPill } from './asleep-pill.tsx';
import { BatteryLevel } from './battery-level.tsx';
import classes from './device-tones.module.css';
import { StatusBadge } from './status-badge.tsx';

const none = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

/** What the device reports about itself and what the registry knows, read-only (fleet §3). */
export function DeviceInfo({ device }: { device: Device }) {
  const now = useNow();
  const unresponsive = isUnresponsive(device.updated_at, now);
  const { asleep, neverConnected } = commandAvailability(device, now);
  const items: [string, ReactNode][] = [
    ['Entity', device.entity],
    ['Status', <StatusBadge key="s" state={device.state.current} />],
    ['Connection', unresponsive ? none : asleep ? <AsleepPill key="a" neverConnected={neverConnected} /> : 'Connected'],
    ['Firmware', device.fw_version ?? none],
    ['Battery', <BatteryLevel key="b" percent={device.battery} charging={device.is_charging} />],
    [
      'Last update',
      <Group key="u" gap={8}>
        <span title={formatDateTime(device.updated_at)}>{formatRelative(device.updated_at, now)}</span>
        {unresponsive && (
          <span className={`${classes.tone} ${classes.pill}`} data-tone="red">
            Unresponsive
          </span>
        )}
      </Group>,
    ],
    [
      'Created',
      <span key="c" title={formatDateTime(device.created_at)}>
        {formatDate(device.created_at)}
      </span>,
    ],
    ['Certificate', device.has_certificate ? 'On file' : 'None'],
    ['Last group', device.last_dispenser?.dispenser ?? none],
    ['Provisioning', device.current_provision ?? none],
    ['Download', device.current_download ?? none],
  ];
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="md">
        Device status
      </Title>
      <DataList labelWidth={110} gap="sm" withDivider>
        {items.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList>
    </Paper>
  );
}
