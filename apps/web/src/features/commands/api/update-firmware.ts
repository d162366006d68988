import { BulkCommandAnswerSchema, CommandAnswerSchema, type BulkCommandAnswer } from '@fleet/shared/schemas/command';
import type { CommandAnswer } from '@fleet/shared/schemas/command';
import { api } from '@/lib/api/api.ts';
import { firmwareUpdatePath } from '../../../lib/api/device-paths.ts';

/**
 * POST tenant/{entity}/mqtt/dfu/{device}: the server picks the newest firmware for the device and
 * answers `started` (200) or `queued` (202, asleep). The update's end shows in the history.
 */
export async function sendFirmwareUpdate(entity: string, device: string): Promise<CommandAnswer> {
  return api.post(
    firmwareUpdatePath(entity, device),
    {},
    { notify: false, parse: (d) => CommandAnswerSchema.parse(d) },
  );
}

/** POST tenant/{entity}/mqtt/dfu/devices `{devices}`: each device gets the firmware chosen for it. */
export async function sendBulkFirmwareUpdate(entity: string, devices: string[]): Promise<BulkCommandAnswer> {
  return api.post(
    firmwareUpdatePath(entity, null),
    { devices },
    { notify: false, parse: (d) => BulkCommandAnswerSchema.parse(d) },
  );
}
