import { ActionIcon, Anchor, Checkbox, Group, Loader, Menu, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconDotsVertical, IconEye, IconPencil, IconTrash, IconUserShare } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Device } from '@fleet/shared/schemas/device';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { commandAvailability, type CommandAvailability } from '@/lib/device/command-availability.ts';
import { isUnresponsive } from '@/lib/device/device-health.ts';
import { AsleepPill } from './asleep-pill.tsx';
import { BatteryLevel } from './battery-level.tsx';
import classes from './device-tones.module.css';
import { StatusBadge } from './status-badge.tsx';

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
  const { device, landlord, now, href, selected, onSelect, writable, onDelete, deleting, busy, extras } = props;
  const unresponsive = isUnresponsive(device.updated_at, now);
  const availability = commandAvailability(device, now);
  const context: DeviceRowContext = { availability, unresponsive, busy };
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
      </Table.Td>
      <Table.Td>{device.group ?? <Dash />}</Table.Td>
      {landlord && <Table.Td>{device.entity}</Table.Td>}
      <Table.Td>{device.fw_version ?? <Dash />}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <StatusBadge state={device.state.current} />
          {availability.asleep && <AsleepPill compact neverConnected={availability.neverConnected} />}
        </Group>
        {/* A firmware update's progress, as the server keeps it while the update runs. */}
        {device.current_download && (
          <Text size="xs" c="dimmed" mt={2}>
            {device.current_download}
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(device.created_at)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm" title={formatDateTime(device.updated_at)}>
          {formatRelative(device.updated_at, now)}
        </Text>
        {unresponsive && (
          <Tooltip label="No sign of life for over 20 minutes" withArrow>
            <span className={`${classes.tone} ${classes.pill}`} data-tone="red" tabIndex={0}>
              Unresponsive
            </span>
          </Tooltip>
        )}
      </Table.Td>
      <Table.Td>
        <BatteryLevel percent={device.battery} charging={device.is_charging} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {extras.actions?.(device, context)}
          {/* No focus placeholder: opening by keyboard focuses the first item (WAI-ARIA menu button), and
            axe rejects the placeholder inside role=menu (aria-required-children). */}
          <Menu position="bottom-end" withArrow shadow="md" withInitialFocusPlaceholder={false}>
            <Menu.Target>
              {/* A command in flight shows a spinner but keeps the button usable: focus stays on it. */}
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Actions for device ${device.name}`}
                aria-busy={busy || undefined}
                loading={deleting}
              >
                {busy ? <Loader size={16} /> : <IconDotsVertical size={18} stroke={1.6} aria-hidden />}
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                component={Link}
                to={href}
                leftSection={writable ? <IconPencil size={16} aria-hidden /> : <IconEye size={16} aria-hidden />}
              >
                {writable ? 'Edit' : 'View'}
              </Menu.Item>
              <Menu.Divider />
              {extras.menuItems?.(device, context)}
              {/* Allocation and return go through the kiosk manager for the active entity (fleet §2). */}
              {!landlord && (
                <>
                  <Menu.Divider />
                  <Menu.Item
                    component={Link}
                    to={`${href}/allocate`}
                    leftSection={<IconUserShare size={16} aria-hidden />}
                  >
                    Allocate
                  </Menu.Item>
                  <Menu.Item
                    component={Link}
                    to={`${href}/deploy`}
                    leftSection={<IconArrowBackUp size={16} aria-hidden />}
                  >
                    Return Device
                  </Menu.Item>
                </>
              )}
              {writable && (
                <>
                  <Menu.Divider />
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => onDelete(device)}
                  >
                    Delete
                  </Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});

function Dash() {
  return (
    <Text span c="dimmed" size="sm">
      —
    </Text>
  );
}
