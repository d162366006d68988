import { z } from 'zod';
import { MESSAGES, apiName, description } from '../validation.ts';
import { streetNumberError } from '../org-rules.ts';
import { gpsCoordinates, infoAnswer, infoInput } from './place.ts';

const addressText = () => z.string().trim().max(200, 'At most 200 characters');

/** A street address (fleet §3); every part optional, the number numeric. */
export const AddressInputSchema = z
  .object({
    street: addressText(),
    number: z
      .string()
      .trim()
      .max(10)
      .refine((v) => v === '' || streetNumberError(v) === null, MESSAGES.numeric),
    postalcode: addressText(),
    city: addressText(),
    region: addressText(),
    country: addressText(),
  })
  .partial()
  .strict();

export const AddressSchema = z.object({
  street: z.string(),
  number: z.string(),
  postalcode: z.string(),
  city: z.string(),
  region: z.string(),
  country: z.string(),
});

/** A site as the API presents it (fleet §3). */
export const SiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  address: AddressSchema,
  gps_coordinates: z.tuple([z.number(), z.number()]),
  ...infoAnswer(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Site = z.infer<typeof SiteSchema>;

const siteFields = {
  name: apiName(),
  description: description(),
  address: AddressInputSchema,
  /** Required for a site (fleet §5). */
  gps_coordinates: gpsCoordinates({ error: MESSAGES.required }),
  ...infoInput(),
};

/** POST site `{document}`. */
export const SiteCreateRequestSchema = z.object({
  document: z
    .object({ ...siteFields, description: description().default(''), address: AddressInputSchema.default({}) })
    .strict(),
});
export type SiteCreateDocument = z.input<typeof SiteCreateRequestSchema>['document'];

/** PUT site/{name} `{operator: {$set}}`. */
export const SiteUpdateSetSchema = z.object(siteFields).partial().strict();
export const SiteUpdateRequestSchema = z.object({ operator: z.object({ $set: SiteUpdateSetSchema }) });
export type SiteUpdateSet = z.infer<typeof SiteUpdateSetSchema>;
