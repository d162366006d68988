import { MESSAGES, apiName, email, newPassword } from '@fleet/shared/validation';
import type { FieldErrors } from '@/lib/forms/field-errors.ts';
import { firstIssue } from '@/lib/forms/first-issue.ts';
import type { AccountCreateValues } from './account-payload.ts';

export type CreateField = 'name' | 'email' | 'password' | 'confirmation' | 'entity';
export const CREATE_FIELDS: readonly CreateField[] = ['name', 'email', 'password', 'confirmation', 'entity'];
export type EditField = 'name' | 'email';
export const EDIT_FIELDS: readonly EditField[] = ['name', 'email'];
export type PasswordField = 'password' | 'confirmation';
export const PASSWORD_FIELDS: readonly PasswordField[] = ['password', 'confirmation'];

/** Confirmation required and equal to the password (core §5). */
function confirmationIssue(passwordValue: string, confirmation: string): string | undefined {
  if (confirmation === '') return MESSAGES.required;
  return confirmation === passwordValue ? undefined : MESSAGES.passwordConfirm;
}

/**
 * Account create (core §5): username required in api-name format, valid e-mail, password of at
 * least 6, not a common one, confirmed; an entity unless the subtype is sadmin (only the landlord form asks for one).
 */
export function validateAccountCreate(values: AccountCreateValues, asksEntity: boolean): FieldErrors<CreateField> {
  return {
    name: firstIssue(apiName(), values.name),
    email: firstIssue(email(), values.email),
    password: firstIssue(newPassword(), values.password),
    confirmation: confirmationIssue(values.password, values.confirmation),
    entity: asksEntity && values.subtype !== 'sadmin' && values.entity.trim() === '' ? MESSAGES.required : undefined,
  };
}

/** Account edit (core §5): username required in api-name format; e-mail required and valid. */
export function validateAccountEdit(values: { name: string; email: string }): FieldErrors<EditField> {
  return { name: firstIssue(apiName(), values.name), email: firstIssue(email(), values.email) };
}

/** Change password (core §5): required, min 6, not a common one (the server's policy), confirmed. */
export function validatePasswordChange(values: { password: string; confirmation: string }): FieldErrors<PasswordField> {
  return {
    password: firstIssue(newPassword(), values.password),
    confirmation: confirmationIssue(values.password, values.confirmation),
  };
}
