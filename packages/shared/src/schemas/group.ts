import { z } from 'zod';
import { MESSAGES, apiName, description } from '../validation.ts';
import { certificate, optionalText } from './device.ts';
import {
  LocationInputSchema,
  LocationSchema,
  StateInputSchema,
  StateSchema,
  infoAnswer,
  infoInput,
  jsonInfo,
  reference,
} from './place.ts';

/** Most devices one group may hold. */
export const GROUP_CAPACITY_MAX = 100_000;

/** A group (dispenser) as the API presents it (fleet §3), with how many devices it holds now. */
export const GroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Most devices it holds; null: no limit. */
  capacity: z.number().nullable(),
  kiosk: z.string().nullable(),
  location: LocationSchema,
  configuration: z.unknown(),
  ...infoAnswer(),
  has_certificate: z.boolean(),
  state: StateSchema,
  devices: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Group = z.infer<typeof GroupSchema>;

const capacity = () =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z
      .number({ error: MESSAGES.capacity })
      .int(MESSAGES.capacity)
      .min(1, MESSAGES.capacity)
      .max(GROUP_CAPACITY_MAX, MESSAGES.capacity)
      .nullable()
      .optional(),
  );

const groupFields = {
  name: apiName(),
  description: description(),
  capacity: capacity(),
  kiosk: reference(),
  location: LocationInputSchema,
  configuration: jsonInfo(),
  ...infoInput(),
  X509_certificate: optionalText(certificate()),
  state: StateInputSchema.optional(),
};

/** POST dispenser `{document}`. */
export const GroupCreateRequestSchema = z.object({
  document: z
    .object({ ...groupFields, description: description().default(''), location: LocationInputSchema.default({}) })
    .strict(),
});
export type GroupCreateDocument = z.input<typeof GroupCreateRequestSchema>['document'];

/** PUT dispenser/{name} `{operator: {$set}}`; `location` replaces the whole location. */
export const GroupUpdateSetSchema = z.object(groupFields).partial().strict();
export const GroupUpdateRequestSchema = z.object({ operator: z.object({ $set: GroupUpdateSetSchema }) });
export type GroupUpdateSet = z.infer<typeof GroupUpdateSetSchema>;
