import { z } from 'zod';

/** A permanent API token as listed: never its value, which is shown once (core §3). */
export const PermanentTokenSchema = z.object({
  token_hash: z.string(),
  created_at: z.string(),
  last_used: z.string().nullable(),
  description: z.string(),
});
export type PermanentToken = z.infer<typeof PermanentTokenSchema>;

/** GET …/permanent-token: generates a token; its value appears in this answer only. */
export const GeneratedTokenSchema = PermanentTokenSchema.extend({ token: z.string() });
export type GeneratedToken = z.infer<typeof GeneratedTokenSchema>;

export const TokenListSchema = z.object({ tokens: z.array(PermanentTokenSchema) });

export const GenerateTokenQuerySchema = z.object({
  description: z.string().trim().max(200, 'At most 200 characters').default(''),
});
