import { Anchor, Box, Checkbox, Table, Text } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Device } from '@fleet/shared/schemas/device';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { commandAvailability, type CommandAvailability } from '@/lib/device/command-availability.ts';
import { isUnresponsive } from '@/lib/device/device-health.ts';
import { BatteryLevel } from './battery-level.tsx';
import { FULL, MEDIUM } from './device-columns.ts';
import { Dash, DeviceActions, DeviceStatus, UnresponsivePill } from './device-row-parts.tsx';
import classes from './device-tones.module.css';

/** What a row knows of its device that other features' parts need. */
export interface DeviceRowContext {
  availability: CommandAvailability;
  unresponsive: boolean;
  /** An action on this device (a command) is in flight. */
  busy: boolean;
}

/**
 * What a row offers beyond the registry's own (commands, provisioning): other features' parts,
 * composed by the route. Keep the object stable (useMemo) so rows stay memoised.
 */
export interface DeviceRowExtras {
  /** Buttons beside the row's menu. */
  actions?(device: Device, context: DeviceRowContext): ReactNode;
  /** Items of the row's menu between Edit and Allocate. */
  menuItems?(device: Device, context: DeviceRowContext): ReactNode;
}

export interface DeviceRowProps {
  device: Device;
  landlord: boolean;
  now: number;
  href: string;
  /** Whether the row's checkbox is ticked; undefined: no checkbox. */
  selected: boolean | undefined;
  onSelect(name: string, selected: boolean): void;
  /** May change the registry: the menu offers Edit and Delete, otherwise View. */
  writable: boolean;
  onDelete(device: Device): void;
  deleting: boolean;
  /** An action on this device is in flight: the menu button spins, still usable. */
  busy: boolean;
  extras: DeviceRowExtras;
}

/**
 * One device of the list (core §2). An unresponsive device (no sign of life for 20 minutes) is
 * tinted and labelled and its commands are disabled; a sleeping one is marked Asleep.
 */
export const DeviceRow = memo(function DeviceRow(props: DeviceRowProps) {
  const { device, landlord, now, href, selected, onSelect } = props;
  const unresponsive = isUnresponsive(device.updated_at, now);
  const availability = commandAvailability(device, now);
  const context: DeviceRowContext = { availability, unresponsive, busy: props.busy };
  return (
    <Table.Tr
      className={unresponsive ? classes.unresponsive : undefined}
      data-unresponsive={unresponsive || undefined}
      bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
    >
      {selected !== undefined && (
        <Table.Td>
          <Checkbox
            aria-label={`Select device ${device.name}`}
            checked={selected}
            onChange={(event) => onSelect(device.name, event.currentTarget.checked)}
          />
        </Table.Td>
      )}
      <Table.Td>
        <Anchor component={Link} to={href} fw={600} size="sm" ff="monospace" className={classes.rowLink}>
          {device.name}
        </Anchor>
        {device.description && (
          <Text size="xs" className={classes.rowNote} lineClamp={1} maw={150}>
            {device.description}
          </Text>
        )}
        <FoldedColumns device={device} landlord={landlord} />
      </Table.Td>
      <Table.Td visibleFrom={FULL}>{device.group ?? <Dash />}</Table.Td>
      {landlord && <Table.Td visibleFrom={MEDIUM}>{device.entity}</Table.Td>}
      <Table.Td visibleFrom={FULL}>{device.fw_version ?? <Dash />}</Table.Td>
      <Table.Td>
        <DeviceStatus device={device} availability={availability} />
        {/* With the status, not the time: it stays in view when Last Updated folds away. */}
        {unresponsive && (
          <Box mt={4}>
            <UnresponsivePill />
          </Box>
        )}
        <Text size="xs" className={classes.rowNote} title={formatDateTime(device.updated_at)} hiddenFrom={MEDIUM}>
          Updated {formatRelative(device.updated_at, now)}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom={FULL} style={{ whiteSpace: 'nowrap' }}>
        {formatDate(device.created_at)}
      </Table.Td>
      <Table.Td visibleFrom={MEDIUM} style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm" title={formatDateTime(device.updated_at)}>
          {formatRelative(device.updated_at, now)}
        </Text>
      </Table.Td>
      <Table.Td>
        <BatteryLevel percent={device.battery} charging={device.is_charging} />
      </Table.Td>
      <Table.Td>
        <DeviceActions {...props} context={context} />
      </Table.Td>
    </Table.Tr>
  );
});

/**
 * What the columns hidden at this width say, under the Device ID: groups, firmware and created
 * date below FULL, the entity (landlord) below MEDIUM. Empty values are left out, not dashed.
 */
function FoldedColumns({ device, landlord }: Pick<DeviceRowProps, 'device' | 'landlord'>) {
  const parts = [
    device.group && `Group ${device.group}`,
    device.fw_version && `v${device.fw_version}`,
    `Created ${formatDate(device.created_at)}`,
  ].filter(Boolean);
  return (
    <>
      {landlord && (
        <Text size="xs" className={classes.rowNote} hiddenFrom={MEDIUM}>
          Entity {device.entity}
        </Text>
      )}
      <Text size="xs" className={classes.rowNote} hiddenFrom={FULL}>
        {parts.join(' · ')}
      </Text>
    </>
  );
}
