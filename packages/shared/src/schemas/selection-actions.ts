// The actions on everything a filter matches beyond commands and delete (issue 27): firmware
// update, putting into a group, provisioning. Each first answers its own dry-run breakdown.
import { z } from 'zod';
import { MAX_COMMAND_TTL_S } from './command.ts';

const ttl = z.number().int().min(1).max(MAX_COMMAND_TTL_S).optional();

/** POST …/device-selection/{id}/firmware(/plan): the firmware every matching device of its type gets. */
export const SelectionFirmwareRequestSchema = z.object({ firmware_id: z.uuid(), expires_in_s: ttl });
export type SelectionFirmwareRequest = z.input<typeof SelectionFirmwareRequestSchema>;

/**
 * The dry run of a firmware update on a selection: of `total`, `update` devices get it; the others
 * are skipped because they already run that version, are unresponsive (core §4's 20 minutes), are
 * of another device type (or, on the landlord's list, of another entity than the firmware's), are
 * outside the site or group a site- or group-level firmware is for (`other_place`), or were
 * deleted since the count. `level` and `place` say where the firmware was uploaded (fleet §7).
 */
export const SelectionFirmwarePlanSchema = z.object({
  total: z.number().int(),
  update: z.number().int(),
  current: z.number().int(),
  unresponsive: z.number().int(),
  other_type: z.number().int(),
  other_place: z.number().int(),
  gone: z.number().int(),
  version: z.string(),
  device_type: z.string(),
  level: z.enum(['entity', 'site', 'group']),
  place: z.string(),
});
export type SelectionFirmwarePlan = z.infer<typeof SelectionFirmwarePlanSchema>;

/** POST …/device-selection/{id}/group(/plan): the group (dispenser) to put the devices into, by its id. */
export const SelectionGroupRequestSchema = z.object({ group_id: z.uuid() });
export type SelectionGroupRequest = z.input<typeof SelectionGroupRequestSchema>;

/**
 * The dry run of putting a selection into a group: of `total`, `put` devices move into it; the
 * others are already in it, of another entity than the group's (the landlord's list), deleted
 * since the count, or beyond the group's capacity (`full`).
 */
export const SelectionGroupPlanSchema = z.object({
  total: z.number().int(),
  put: z.number().int(),
  already: z.number().int(),
  other_entity: z.number().int(),
  gone: z.number().int(),
  full: z.number().int(),
  group: z.string(),
  capacity: z.number().int().nullable(),
});
export type SelectionGroupPlan = z.infer<typeof SelectionGroupPlanSchema>;

/** POST …/device-selection/{id}/provision(/plan): no choice to make; nothing else is taken. */
export const SelectionProvisionRequestSchema = z.object({}).strict();

/**
 * The dry run of provisioning a selection: of `total`, `start` devices are connected and get a
 * session; the others are offline (not connected now), unresponsive (core §4's 20 minutes) or
 * deleted since the count. A device without files or with a session open is refused when reached.
 */
export const SelectionProvisionPlanSchema = z.object({
  total: z.number().int(),
  start: z.number().int(),
  offline: z.number().int(),
  unresponsive: z.number().int(),
  gone: z.number().int(),
});
export type SelectionProvisionPlan = z.infer<typeof SelectionProvisionPlanSchema>;

/**
 * GET …/device-selection/{id}/choices: what the selection's firmware and group actions may name,
 * from the entities its devices belong to (one on an entity's list): every firmware of each
 * level (entity, site, group) with where it was uploaded, and every group.
 */
export const SelectionChoicesSchema = z.object({
  firmware: z.array(
    z.object({
      id: z.string(),
      entity: z.string(),
      level: z.enum(['entity', 'site', 'group']),
      place: z.string(),
      device_type: z.string(),
      version: z.string(),
    }),
  ),
  groups: z.array(z.object({ id: z.string(), entity: z.string(), name: z.string() })),
});
export type SelectionChoices = z.infer<typeof SelectionChoicesSchema>;
