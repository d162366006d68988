import { Button, Menu, Tooltip } from '@mantine/core';
import { IconPackageImport, IconPlayerStop } from '@tabler/icons-react';
import type { Device } from '@fleet/shared/schemas/device';
import { provisioning, useProvisioning } from '../hooks/use-provisioning.ts';
import { countsAsProvisioning, isActive } from '../utils/provision-state.ts';

interface Props {
  device: Pick<Device, 'name' | 'entity' | 'state' | 'current_provision'>;
  /** Unresponsive devices can be neither provisioned nor cancelled (core §4). */
  disabled: boolean;
}

/** Why a session cannot start on a device that is not connected (commands, unlike it, are held). */
export const PROVISION_ASLEEP_HINT =
  'Asleep — provisioning needs the device connected: start it once the device wakes (commands, unlike provisioning, wait for it)';
export const PROVISION_NEVER_CONNECTED_HINT =
  'Not connected yet — provisioning needs the device connected: start it once the device is online';
const UNRESPONSIVE_PROVISION_HINT = 'Unresponsive — provisioning is disabled';

interface ButtonProps extends Props {
  /** Whether the device is connected now: a session is a live exchange, not held like a command. */
  connection?: 'online' | 'asleep' | 'never';
}

/**
 * A row's Provision button (core §2): 'Provisioning...' while the device counts as provisioning
 * (core §4), which opens the session's modal; otherwise it starts a session, which needs the
 * device connected: for a sleeping or never-connected device it is disabled and says why
 * (docs/decisions/2026-11-25-device-feedback.md).
 */
export function ProvisionButton({ device, disabled, connection = 'online' }: ButtonProps) {
  const view = useProvisioning((s) => s.sessions.get(device.name)?.view);
  const busy = countsAsProvisioning(device, view);
  const hint = disabled
    ? UNRESPONSIVE_PROVISION_HINT
    : busy || connection === 'online'
      ? null
      : connection === 'never'
        ? PROVISION_NEVER_CONNECTED_HINT
        : PROVISION_ASLEEP_HINT;
  const button = (
    <Button
      size="compact-xs"
      variant={busy ? 'light' : 'default'}
      disabled={hint !== null}
      leftSection={<IconPackageImport size={14} aria-hidden />}
      aria-label={busy ? `Provisioning... device ${device.name}` : `Provision device ${device.name}`}
      onClick={() =>
        busy ? void provisioning.show(device.entity, device.name) : void provisioning.start(device.entity, device.name)
      }
    >
      {busy ? 'Provisioning...' : 'Provision'}
    </Button>
  );
  return hint !== null ? (
    <Tooltip label={hint} withArrow multiline maw={300}>
      <span tabIndex={0}>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

/** The row menu's cancel provisioning, offered while the device counts as provisioning. */
export function CancelProvisionItem({ device, disabled }: Props) {
  const tracked = useProvisioning((s) => s.sessions.get(device.name)?.view);
  const busy = isActive(tracked) || countsAsProvisioning(device, tracked);
  return (
    <Menu.Item
      color="red"
      disabled={disabled || !busy}
      leftSection={<IconPlayerStop size={16} aria-hidden />}
      onClick={() => void provisioning.cancel(device.entity, device.name)}
    >
      Cancel provisioning
    </Menu.Item>
  );
}
