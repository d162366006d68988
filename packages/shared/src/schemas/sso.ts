import { z } from 'zod';
import { ACCESS_VALUES } from '../constants.ts';

/** What a person is matched to an account by: the ID token's e-mail, or its subject (docs/sso.md). */
export const SSO_CLAIMS = ['email', 'sub'] as const;

/** Account types an SSO sign-in may create; never admin or superadmin. */
export const SSO_CREATE_SUBTYPES = ['operator', 'infra', 'developer'] as const;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An issuer: an https URL (http only on loopback, for development), without query or fragment. */
export const issuerUrl = z
  .string()
  .trim()
  .max(512)
  .pipe(z.url({ message: 'Must be a URL' }))
  // Zod runs refinements after a failed `z.url()` too: a string URL cannot parse is left to it.
  .refine((v) => {
    if (!URL.canParse(v)) return true;
    const u = new URL(v);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
  }, 'Must be an https URL')
  .refine((v) => !/[?#]/.test(v), 'Must have no query or fragment');

/** PUT an entity's identity provider. The secret may be left out to keep the stored one. */
export const SsoProviderRequestSchema = z.object({
  label: z.string().trim().min(1).max(64),
  issuer: issuerUrl,
  client_id: z.string().trim().min(1).max(256),
  client_secret: z.string().min(1).max(512).optional(),
  claim: z.enum(SSO_CLAIMS).default('email'),
  auto_create: z.boolean().default(false),
  default_subtype: z.enum(SSO_CREATE_SUBTYPES).default('developer'),
  default_access: z.array(z.enum(ACCESS_VALUES)).max(ACCESS_VALUES.length).default([]),
});
export type SsoProviderRequest = z.input<typeof SsoProviderRequestSchema>;

/** An entity's identity provider as the API shows it: the secret never leaves the server. */
export const SsoProviderSchema = z.object({
  id: z.string(),
  entity: z.string(),
  label: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  has_secret: z.boolean(),
  claim: z.enum(SSO_CLAIMS),
  auto_create: z.boolean(),
  default_subtype: z.enum(SSO_CREATE_SUBTYPES),
  default_access: z.array(z.string()),
  redirect_uri: z.string(),
});
export type SsoProvider = z.infer<typeof SsoProviderSchema>;
export const SsoProviderResponseSchema = z.object({ data: SsoProviderSchema.nullable() });

/** The login page's buttons: every configured provider by an opaque id and its label. */
export const SsoProviderListSchema = z.object({
  data: z.array(z.object({ id: z.string(), label: z.string() })),
});
export type SsoProviderList = z.infer<typeof SsoProviderListSchema>;

/** POST the one-time code the callback handed the console, for the token pair. */
export const SsoExchangeRequestSchema = z.object({ code: z.string().min(1).max(128) });
