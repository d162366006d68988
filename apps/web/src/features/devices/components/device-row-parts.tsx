import { ActionIcon, Group, Loader, Menu, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconDotsVertical, IconEye, IconPencil, IconTrash, IconUserShare } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Device } from '@fleet/shared/schemas/device';
import type { CommandAvailability } from '@/lib/device/command-availability.ts';
import { useAccess } from '@/lib/session/use-access.ts';
import { AsleepPill } from './asleep-pill.tsx';
import classes from './device-tones.module.css';
import type { DeviceRowContext, DeviceRowProps } from './device-row.tsx';
import { StatusBadge } from './status-badge.tsx';

/** The device's state, Asleep when it sleeps, and a firmware update's progress as the server keeps it. */
export function DeviceStatus({ device, availability }: { device: Device; availability: CommandAvailability }) {
  return (
    <>
      <Group gap={4} wrap="nowrap">
        <StatusBadge state={device.state.current} />
        {availability.asleep && <AsleepPill compact neverConnected={availability.neverConnected} />}
      </Group>
      {device.current_download && (
        <Text size="xs" c="dimmed" mt={2}>
          {device.current_download}
        </Text>
      )}
    </>
  );
}

/** The red Unresponsive label of a device with no sign of life for 20 minutes (core §4). */
export function UnresponsivePill() {
  return (
    <Tooltip label="No sign of life for over 20 minutes" withArrow>
      <span className={`${classes.tone} ${classes.pill}`} data-tone="red" tabIndex={0}>
        Unresponsive
      </span>
    </Tooltip>
  );
}

type DeviceActionsProps = Pick<
  DeviceRowProps,
  'device' | 'landlord' | 'href' | 'writable' | 'onDelete' | 'deleting' | 'busy' | 'extras'
> & { context: DeviceRowContext };

/** A device's actions: other features' buttons, then its menu (Edit or View, commands, Allocate, Return, Delete). */
export function DeviceActions(props: DeviceActionsProps) {
  const { device, landlord, href, writable, onDelete, deleting, busy, extras, context } = props;
  // Allocate and Return Device need Group_all or all (the shared access rule): not offered otherwise.
  const allocates = useAccess('allocation') === 'change';
  return (
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
        {/* Never wider than a phone's window: a long note wraps instead of running off the screen. */}
        <Menu.Dropdown maw="calc(100vw - 16px)">
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
          {!landlord && allocates && (
            <>
              <Menu.Divider />
              <Menu.Item component={Link} to={`${href}/allocate`} leftSection={<IconUserShare size={16} aria-hidden />}>
                Allocate
              </Menu.Item>
              <Menu.Item component={Link} to={`${href}/deploy`} leftSection={<IconArrowBackUp size={16} aria-hidden />}>
                Return Device
              </Menu.Item>
            </>
          )}
          {writable && (
            <>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => onDelete(device)}>
                Delete
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/** A dimmed dash for a field the device has not reported. */
export function Dash() {
  return (
    <Text span c="dimmed" size="sm">
      —
    </Text>
  );
}
