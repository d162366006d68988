import { z } from 'zod';
import { apiName, description } from '../validation.ts';
import { LocationInputSchema, LocationSchema, StateInputSchema, StateSchema } from './place.ts';

/** A kiosk as the API presents it (fleet §3). */
export const KioskSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  location: LocationSchema,
  state: StateSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Kiosk = z.infer<typeof KioskSchema>;

const kioskFields = {
  name: apiName(),
  description: description(),
  /** Coordinates are required only without a site (fleet §5); the server checks the whole. */
  location: LocationInputSchema,
  state: StateInputSchema.optional(),
};

/** POST kiosk `{document}`. */
export const KioskCreateRequestSchema = z.object({
  document: z
    .object({ ...kioskFields, description: description().default(''), location: LocationInputSchema.default({}) })
    .strict(),
});
export type KioskCreateDocument = z.input<typeof KioskCreateRequestSchema>['document'];

/** PUT kiosk/{name} `{operator: {$set}}`; `location` replaces the whole location. */
export const KioskUpdateSetSchema = z.object(kioskFields).partial().strict();
export const KioskUpdateRequestSchema = z.object({ operator: z.object({ $set: KioskUpdateSetSchema }) });
export type KioskUpdateSet = z.infer<typeof KioskUpdateSetSchema>;
