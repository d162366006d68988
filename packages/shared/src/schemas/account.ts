import { z } from 'zod';
import { ACCESS_VALUES, SUBTYPES } from '../constants.ts';
import { apiName, email, newPassword } from '../validation.ts';

/** An account as the API presents it; the password hash never leaves the server (core §3). */
export const AccountSchema = z
  .object({
    name: z.string(),
    email: z.string(),
    subtype: z.enum(SUBTYPES),
    entity: z.string().nullable(),
    access: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({
    // Shown in the API reference (/api/docs).
    examples: [
      {
        name: 'ward_admin',
        email: 'ward.admin@example.com',
        subtype: 'admin',
        entity: 'acme',
        access: ['all'],
        created_at: '2026-11-02T09:00:00.000Z',
        updated_at: '2026-11-20T16:30:00.000Z',
      },
    ],
  });
export type Account = z.infer<typeof AccountSchema>;

/** The signed-in account additionally carries `_entity`: its entity's name and description. */
export const CurrentAccountSchema = AccountSchema.extend({
  _entity: z.object({ name: z.string(), description: z.string() }).nullable(),
});
export type CurrentAccount = z.infer<typeof CurrentAccountSchema>;

export const AccountResponseSchema = z.object({ data: CurrentAccountSchema });

const accessList = z.array(z.enum(ACCESS_VALUES)).max(ACCESS_VALUES.length);

/**
 * POST account `{document}` (core §5): name in api-name format, valid e-mail, password of at
 * least 6 and not a common one (password-policy.ts); an entity unless the subtype is sadmin (the server checks that rule and the roles).
 */
export const AccountCreateDocumentSchema = z.object({
  name: apiName(),
  email: email(),
  password: newPassword(),
  subtype: z.enum(SUBTYPES).default('developer'),
  entity: apiName().nullish(),
  access: accessList.default([]),
});
export const AccountCreateRequestSchema = z.object({ document: AccountCreateDocumentSchema });
export type AccountCreateDocument = z.input<typeof AccountCreateDocumentSchema>;

/** PUT account/{name} `{operator: {$set}}`: any subset of the fields. */
export const AccountUpdateSetSchema = z
  .object({
    name: apiName(),
    email: email(),
    password: newPassword(),
    subtype: z.enum(SUBTYPES),
    entity: apiName().nullable(),
    access: accessList,
  })
  .partial()
  .strict();
export const AccountUpdateRequestSchema = z.object({ operator: z.object({ $set: AccountUpdateSetSchema }) });
export type AccountUpdateSet = z.infer<typeof AccountUpdateSetSchema>;
