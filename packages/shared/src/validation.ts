import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './constants.ts';
import { MESSAGES } from './messages.ts';
import { passwordWeakness } from './password-policy.ts';

export { MESSAGES } from './messages.ts';

const API_NAME = /^[A-Za-z0-9_]+$/;

/** A required api-name: letters, digits and underscore only. */
export const apiName = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(64, 'At most 64 characters')
    .regex(API_NAME, MESSAGES.apiName);

/** A required password of at least the minimum length. */
export const password = () =>
  z
    .string({ error: MESSAGES.required })
    .min(1, { error: MESSAGES.required, abort: true })
    .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordMin)
    .max(1024, 'At most 1024 characters');

/**
 * A password being set (account create, password change): the spec's rule and, beyond it, the
 * policy against common and trivial passwords. Sign-in keeps `password()` alone.
 */
export const newPassword = () =>
  password().superRefine((value, ctx) => {
    const weakness = passwordWeakness(value);
    if (weakness) ctx.addIssue({ code: 'custom', message: weakness });
  });

/** Login form and request body (core §5): username required; password required, min 6. */
export const LoginRequestSchema = z.object({
  name: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(64, 'At most 64 characters'),
  password: password(),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** A required, valid e-mail address. */
export const email = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(254, 'At most 254 characters')
    .pipe(z.email({ error: MESSAGES.email }));

/** Free text such as a description. */
export const description = () => z.string().trim().max(500, 'At most 500 characters');

/** Names no entity may take: `landlord` is the superadmins' own scope. */
export const RESERVED_ENTITY_NAMES = ['landlord'] as const;
