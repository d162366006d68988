import { z } from 'zod';
import { ACCESS_VALUES, SUBTYPES } from '../constants.ts';

export { LoginRequestSchema, type LoginRequest } from '../validation.ts';

/** POST /api/v1/login answer (core §3). */
export const LoginResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  logged_in_as: z.string(),
  entity: z.string().nullable(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** POST /api/v1/refresh answer: a new pair. */
export const RefreshResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
});
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

/** Claims of an access token (ARCHITECTURE.md). */
export const AccessClaimsSchema = z.object({
  sub: z.string(),
  entity: z.string().nullable(),
  subtype: z.enum(SUBTYPES),
  permissions: z.array(z.union([z.enum(ACCESS_VALUES), z.string()])),
  typ: z.literal('access'),
  /** The session family; absent when the caller used a permanent token. */
  fam: z.string().optional(),
  iat: z.number(),
  exp: z.number(),
});
export type AccessClaims = z.infer<typeof AccessClaimsSchema>;

export const StatusResponseSchema = z.object({ status: z.string() });
