import { z } from 'zod';
import { SUBTYPES } from '../constants.ts';

/** An account as the API presents it; the password hash never leaves the server (core §3). */
export const AccountSchema = z.object({
  name: z.string(),
  email: z.string(),
  subtype: z.enum(SUBTYPES),
  entity: z.string().nullable(),
  access: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Account = z.infer<typeof AccountSchema>;

/** The signed-in account additionally carries `_entity`: its entity's name and description. */
export const CurrentAccountSchema = AccountSchema.extend({
  _entity: z.object({ name: z.string(), description: z.string() }).nullable(),
});
export type CurrentAccount = z.infer<typeof CurrentAccountSchema>;

export const AccountResponseSchema = z.object({ data: CurrentAccountSchema });
