import { z } from 'zod';
import { LICENSE_TIERS } from '../constants.ts';
import { apiName, description } from '../validation.ts';

/** A tenant (core §3). */
export const EntitySchema = z.object({
  name: z.string(),
  description: z.string(),
  license_tier: z.enum(LICENSE_TIERS),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Entity = z.infer<typeof EntitySchema>;

/**
 * POST tenant: `{document: {name: {name, description}}}` exactly as core §7 has it; the
 * license tier may ride beside name and description or beside `name` (default basic).
 */
export const EntityCreateRequestSchema = z.object({
  document: z.object({
    name: z.object({
      name: apiName(),
      description: description().default(''),
      license_tier: z.enum(LICENSE_TIERS).optional(),
    }),
    license_tier: z.enum(LICENSE_TIERS).optional(),
  }),
});
export type EntityCreateRequest = z.input<typeof EntityCreateRequestSchema>;

/** POST tenant/specific: what one entity holds of one kind, for the landlord (docs/decisions.md). */
export const TenantSpecificRequestSchema = z.object({
  type: z.enum(['entity', 'account']),
  endpoint: apiName(),
});
export type TenantSpecificRequest = z.infer<typeof TenantSpecificRequestSchema>;
