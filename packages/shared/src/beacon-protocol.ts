import { z } from 'zod';

/**
 * The beacon part of the device protocol (docs/device-protocol.md, "Beacon gateways"): what a
 * gateway publishes on `fleet/{entity}/{device}/beacon` and the reminder it may receive on `…/cmd`.
 */

/** One sighting. `beacon_mac` is matched after normalising (lowercase, no colons); `ts` is the gateway's clock, informational. */
export const BeaconSightingSchema = z.object({
  beacon_mac: z.string().min(1).max(32),
  rssi: z.number().int().min(-127).max(20),
  ts: z.number().int().min(0).optional(),
});
export type BeaconSighting = z.infer<typeof BeaconSightingSchema>;

/** The command type of a medication reminder. Gateways show or announce it; they need not reply. */
export const REMINDER_COMMAND = 'reminder';

/** Server → gateway on `…/cmd`: `{id, type: "reminder", payload, expires_at}`. */
export const ReminderMessageSchema = z.object({
  id: z.uuid(),
  type: z.literal(REMINDER_COMMAND),
  payload: z.object({
    beacon_mac: z.string(),
    patient: z.string(),
    room: z.string().nullable(),
    due_time: z.string(),
    medications: z.array(z.string()),
  }),
  expires_at: z.iso.datetime(),
});
export type ReminderMessage = z.infer<typeof ReminderMessageSchema>;
