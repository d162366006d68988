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

/**
 * A row's Provision button (core §2): 'Provisioning...' while the device counts as provisioning
 * (core §4), which opens the session's modal; otherwise it starts a session.
 */
export function ProvisionButton({ device, disabled }: Props) {
  const view = useProvisioning((s) => s.sessions.get(device.name)?.view);
  const busy = countsAsProvisioning(device, view);
  const button = (
    <Button
      size="compact-xs"
      variant={busy ? 'light' : 'default'}
      disabled={disabled}
      leftSection={<IconPackageImport size={14} aria-hidden />}
      aria-label={busy ? `Provisioning... device ${device.name}` : `Provision device ${device.name}`}
      onClick={() =>
        busy ? void provisioning.show(device.entity, device.name) : void provisioning.start(device.entity, device.name)
      }
    >
      {busy ? 'Provisioning...' : 'Provision'}
    </Button>
  );
  return disabled ? (
    <Tooltip label="Unresponsive — provisioning is disabled" withArrow>
      <span>{button}</span>
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
