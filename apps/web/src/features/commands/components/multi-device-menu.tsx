import type { ConsoleCommand } from '../utils/command-actions.ts';
import { Button, Menu } from '@mantine/core';
import {
  IconChevronDown,
  IconDevices,
  IconFolderPlus,
  IconPackageImport,
  IconTrash,
  IconTrashX,
} from '@tabler/icons-react';
import { CommandIcon } from './command-icons.tsx';

interface MultiDeviceMenuProps {
  selectedCount: number;
  /** May change the registry: the deletions are offered. Commands are for every role. */
  writable: boolean;
  onCommandSelected(action: ConsoleCommand): void;
  /** Starts provisioning on each selected connected device (sleeping ones are skipped, with a notice). */
  onProvisionSelected?(): void;
  /** Puts every matching device into a group ("Select all N matching" only). */
  onGroupSelected?(): void;
  /** The entity-wide vibrate's label, e.g. 'Vibrate all devices of acme'; null hides it. */
  vibrateAllLabel: string | null;
  onVibrateAll(): void;
  onDeleteSelected(): void;
  onDeleteAll(): void;
  /** Whose devices "Delete all" removes, e.g. 'of acme'; empty for the list's whole scope. */
  allScope: string;
  busy: boolean;
}

/**
 * The Multi-Device Action menu (core §2): commands to the selected devices (unresponsive ones
 * skipped), the entity-wide vibrate, and for writers the deletions. Provisioning of many devices
 * arrives with its own issue.
 */
export function MultiDeviceMenu(props: MultiDeviceMenuProps) {
  // No focus placeholder: opening by keyboard focuses the first item (WAI-ARIA menu button), and
  // axe rejects the placeholder inside role=menu (aria-required-children).
  return (
    <Menu position="bottom-end" shadow="md" withArrow withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden />} loading={props.busy}>
          Multi-Device Action
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <MultiDeviceItems {...props} />
      </Menu.Dropdown>
    </Menu>
  );
}

/** The menu's items: the selection count, the commands, the entity-wide vibrate, the deletions. */
export function MultiDeviceItems(props: Omit<MultiDeviceMenuProps, 'busy'>) {
  const { selectedCount, writable, onCommandSelected, vibrateAllLabel, onVibrateAll } = props;
  const { onDeleteSelected, onDeleteAll, allScope } = props;
  return (
    <>
      <Menu.Label>{selectedCount === 0 ? 'No devices selected' : `${selectedCount} selected`}</Menu.Label>
      <Menu.Item leftSection={<CommandIcon action="refresh" />} onClick={() => onCommandSelected('refresh')}>
        Refresh selected
      </Menu.Item>
      <Menu.Item leftSection={<CommandIcon action="vibrate" />} onClick={() => onCommandSelected('vibrate')}>
        Vibrate selected
      </Menu.Item>
      <Menu.Item leftSection={<CommandIcon action="dfu" />} onClick={() => onCommandSelected('dfu')}>
        Update Firmware selected
      </Menu.Item>
      <Menu.Item leftSection={<CommandIcon action="reboot" />} onClick={() => onCommandSelected('reboot')}>
        Reboot selected
      </Menu.Item>
      {props.onProvisionSelected && (
        <Menu.Item leftSection={<IconPackageImport size={16} aria-hidden />} onClick={props.onProvisionSelected}>
          Provision selected
        </Menu.Item>
      )}
      {props.onGroupSelected && (
        <Menu.Item leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={props.onGroupSelected}>
          Put into group
        </Menu.Item>
      )}
      {writable && (
        <Menu.Item leftSection={<IconTrash size={16} aria-hidden />} onClick={onDeleteSelected}>
          Delete selected
        </Menu.Item>
      )}
      {(vibrateAllLabel !== null || writable) && <Menu.Divider />}
      {vibrateAllLabel !== null && (
        <Menu.Item leftSection={<IconDevices size={16} aria-hidden />} onClick={onVibrateAll}>
          {vibrateAllLabel}
        </Menu.Item>
      )}
      {writable && (
        <Menu.Item color="red" leftSection={<IconTrashX size={16} aria-hidden />} onClick={onDeleteAll}>
          {allScope ? `Delete all devices ${allScope}` : 'Delete all devices'}
        </Menu.Item>
      )}
    </>
  );
}
