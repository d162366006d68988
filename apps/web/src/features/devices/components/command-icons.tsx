import { IconCpu, IconDeviceMobileVibration, IconPower, IconRefresh } from '@tabler/icons-react';
import type { CommandType } from '@fleet/shared/protocol';

const ICONS = { refresh: IconRefresh, vibrate: IconDeviceMobileVibration, reboot: IconPower, dfu: IconCpu } as const;

/** The icon of a command wherever it is offered (row menu, Multi-Device Action, device screen). */
export function CommandIcon({ action, size = 16 }: { action: CommandType; size?: number }) {
  const Icon = ICONS[action];
  return <Icon size={size} aria-hidden />;
}
