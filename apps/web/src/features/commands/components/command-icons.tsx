import type { ConsoleCommand } from '../utils/command-actions.ts';
import {
  IconArrowBackUp,
  IconCpu,
  IconDeviceMobileVibration,
  IconPower,
  IconRefresh,
  IconUserPlus,
} from '@tabler/icons-react';

const ICONS = {
  refresh: IconRefresh,
  vibrate: IconDeviceMobileVibration,
  reboot: IconPower,
  dfu: IconCpu,
  allocate: IconUserPlus,
  return: IconArrowBackUp,
} as const;

/** The icon of a command wherever it is offered (row menu, Multi-Device Action, device screen). */
export function CommandIcon({ action, size = 16 }: { action: ConsoleCommand; size?: number }) {
  const Icon = ICONS[action];
  return <Icon size={size} aria-hidden />;
}
