import { ApiError } from '../api/api-error.ts';

/** Messages by form field; a field without a message is valid. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * Field messages from a failed save, for showing under the inputs: the per-field details of a
 * 400 or 409 (keys such as `document.email`, `operator.$set.name` or `name` are matched by their
 * last segment); a 409 without usable details (the name is taken) goes under `conflictField`.
 */
export function fieldErrorsFromApi<F extends string>(
  error: unknown,
  fields: readonly F[],
  conflictField?: F,
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return errors;
  for (const [key, messages] of Object.entries(error.details ?? {})) {
    const last = key.split('.').pop() ?? key;
    const field = fields.find((f) => f === last);
    if (field !== undefined && messages[0] !== undefined) errors[field] ??= messages[0];
  }
  if (error.status === 409 && conflictField !== undefined && !hasFieldErrors(errors)) {
    errors[conflictField] = error.userMessage;
  }
  return errors;
}

/** True when no field has a message. */
export function hasFieldErrors<F extends string>(errors: FieldErrors<F>): boolean {
  return Object.values(errors).some((message) => message !== undefined);
}
