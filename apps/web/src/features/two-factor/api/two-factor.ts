import {
  RecoveryCodesSchema,
  TwoFactorEnrolmentSchema,
  TwoFactorRequirementSchema,
  TwoFactorStatusSchema,
  type TwoFactorEnrolment,
  type TwoFactorRequirement,
  type TwoFactorStatus,
} from '@fleet/shared/schemas/two-factor';
import { api } from '@/lib/api/api.ts';

/** GET two-factor: the signed-in account's own second factor. */
export function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatus> {
  return api.get('two-factor', { signal, parse: (d) => TwoFactorStatusSchema.parse(d) });
}

/** POST two-factor/enrol: a new secret, shown this once. */
export function startEnrolment(): Promise<TwoFactorEnrolment> {
  return api.post('two-factor/enrol', undefined, { notify: false, parse: (d) => TwoFactorEnrolmentSchema.parse(d) });
}

/** POST two-factor/confirm: the ten recovery codes, shown this once. */
export async function confirmEnrolment(code: string): Promise<string[]> {
  const answer = await api.post(
    'two-factor/confirm',
    { code },
    { notify: false, parse: (d) => RecoveryCodesSchema.parse(d) },
  );
  return answer.recovery_codes;
}

/** DELETE …/account/{name}/two-factor: an admin resets another account's second factor. */
export function resetTwoFactor(accountPath: string): Promise<unknown> {
  return api.delete(`${accountPath}/two-factor`, { notify: false });
}

/** GET/PUT …two-factor-requirement: whether a scope's admins (an entity's, or the superadmins) must use it. */
export function getRequirement(path: string, signal?: AbortSignal): Promise<TwoFactorRequirement> {
  return api.get(path, { signal, parse: (d) => TwoFactorRequirementSchema.parse(d) });
}

export function putRequirement(path: string, required: boolean): Promise<TwoFactorRequirement> {
  return api.put(path, { required_for_admins: required }, { parse: (d) => TwoFactorRequirementSchema.parse(d) });
}
