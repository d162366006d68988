import { z } from 'zod';
import { LoginResponseSchema } from './session.ts';

/** A six-digit authenticator code, or a recovery code (`xxxxx-xxxxx`) where the step allows one. */
const code = () => z.string().trim().min(1, 'Required').max(32, 'At most 32 characters');
const challenge = () => z.string().min(1, 'Required').max(128, 'At most 128 characters');

/**
 * POST /api/v1/login's answer for an account with a second factor (docs/two-factor.md): no tokens
 * yet, a short-lived challenge instead. `verify`: send a code to /login/two-factor; `enrol`: the
 * account must set up an authenticator first (/login/two-factor/enrol, then /confirm).
 */
export const TwoFactorChallengeSchema = z.object({
  two_factor: z.enum(['verify', 'enrol']),
  challenge: z.string(),
  expires_in: z.number().int(),
  logged_in_as: z.string(),
  message: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

export const LoginOrChallengeSchema = z.union([LoginResponseSchema, TwoFactorChallengeSchema]);
export type LoginOrChallenge = z.infer<typeof LoginOrChallengeSchema>;

export const TwoFactorCodeRequestSchema = z.object({ challenge: challenge(), code: code() });
export const TwoFactorChallengeRequestSchema = z.object({ challenge: challenge() });
export const TwoFactorConfirmRequestSchema = z.object({ code: code() });

/** An enrolment started: shown once, to put into the authenticator app. */
export const TwoFactorEnrolmentSchema = z.object({ secret: z.string(), otpauth_uri: z.string() });
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolmentSchema>;

/** Enrolment confirmed: the ten recovery codes, shown this once. */
export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/** The sign-in finished while enrolling: the session and the recovery codes. */
export const LoginWithRecoveryCodesSchema = LoginResponseSchema.extend(RecoveryCodesSchema.shape);

/** The caller's own second factor. */
export const TwoFactorStatusSchema = z.object({
  enrolled: z.boolean(),
  required: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** Whether a scope's admins (an entity's, or the superadmins on the plain path) must use a second factor. */
export const TwoFactorRequirementSchema = z.object({ required_for_admins: z.boolean() });
export type TwoFactorRequirement = z.infer<typeof TwoFactorRequirementSchema>;
