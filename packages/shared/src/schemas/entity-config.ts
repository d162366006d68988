import { z } from 'zod';
import { LICENSE_TIERS } from '../constants.ts';
import { description } from '../validation.ts';
import { infoAnswer, infoInput } from './place.ts';

/** The entity config (fleet §3): the entity's description, JSON infos, device path and license tier. */
export const EntityConfigSchema = z.object({
  name: z.string(),
  description: z.string(),
  ...infoAnswer(),
  devicePath: z.string(),
  license_tier: z.enum(LICENSE_TIERS),
});
export type EntityConfig = z.infer<typeof EntityConfigSchema>;

/** PUT config `{operator: {$set}}` (fleet §7). The name is read-only; an unchanged one is dropped. */
export const EntityConfigSetSchema = z
  .object({
    name: z.string().trim().max(64),
    description: description(),
    ...infoInput(),
    devicePath: z.string().trim().max(255, 'At most 255 characters'),
    license_tier: z.enum(LICENSE_TIERS),
  })
  .partial()
  .strict();
export const EntityConfigUpdateRequestSchema = z.object({ operator: z.object({ $set: EntityConfigSetSchema }) });
export type EntityConfigSet = z.infer<typeof EntityConfigSetSchema>;
