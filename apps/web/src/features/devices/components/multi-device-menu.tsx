import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconTrash, IconTrashX } from '@tabler/icons-react';

interface MultiDeviceMenuProps {
  selectedCount: number;
  onDeleteSelected(): void;
  onDeleteAll(): void;
  /** Whose devices "Delete all" removes, e.g. 'of acme'; empty for the list's whole scope. */
  allScope: string;
  busy: boolean;
}

/**
 * The Multi-Device Action menu (core §2). Commands and provisioning arrive with device support;
 * until then it offers the deletions.
 */
export function MultiDeviceMenu({
  selectedCount,
  onDeleteSelected,
  onDeleteAll,
  allScope,
  busy,
}: MultiDeviceMenuProps) {
  return (
    <Menu position="bottom-end" shadow="md" withArrow>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden />} loading={busy}>
          Multi-Device Action
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{selectedCount === 0 ? 'No devices selected' : `${selectedCount} selected`}</Menu.Label>
        <Menu.Item leftSection={<IconTrash size={16} aria-hidden />} onClick={onDeleteSelected}>
          Delete selected
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrashX size={16} aria-hidden />} onClick={onDeleteAll}>
          {allScope ? `Delete all devices ${allScope}` : 'Delete all devices'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
