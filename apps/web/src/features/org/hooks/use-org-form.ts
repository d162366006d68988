import { useState } from 'react';
import { ApiError } from '@/lib/api/api-error.ts';
import { hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';

/** The form field a server detail key names: `document.gps_coordinates.1` is the longitude. */
export function fieldOfDetail(key: string): string {
  const parts = key.split('.');
  const last = parts.at(-1) ?? key;
  if (parts.at(-2) === 'gps_coordinates') return last === '1' ? 'longitude' : 'latitude';
  if (last === 'gps_coordinates') return 'latitude';
  return last;
}

/**
 * State of the site, kiosk, group and entity config forms: text values, the shared rules'
 * messages after the first submit (then following the input), and a save's 400/409 details
 * under their fields.
 */
export function useOrgForm<F extends string>(
  initial: Record<F, string>,
  validate: (values: Record<F, string>) => FieldErrors<F>,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [submitted, setSubmitted] = useState(false);

  const setAll = (next: Record<F, string>) => {
    setValues(next);
    if (submitted) setErrors(validate(next));
  };
  return {
    values,
    errors,
    set: (field: F, value: string) => setAll({ ...values, [field]: value }),
    /** The props of a text input or area bound to `field`. */
    text: (field: F, readOnly?: boolean) => ({
      value: values[field],
      error: errors[field],
      readOnly,
      autoComplete: 'off',
      onChange: (event: { currentTarget: { value: string } }) =>
        setAll({ ...values, [field]: event.currentTarget.value }),
    }),
    setMany: (patch: Partial<Record<F, string>>) => setAll({ ...values, ...patch }),
    /** A message under one field (e.g. a JSON file that could not be read). */
    setError: (field: F, message: string | undefined) => setErrors((e) => ({ ...e, [field]: message })),
    /** Validates everything; true when the form may be sent. */
    check(): boolean {
      setSubmitted(true);
      const found = validate(values);
      setErrors(found);
      return !hasFieldErrors(found);
    },
    /** Shows a failed save's field messages; a name conflict goes under the name. */
    showServerErrors(error: unknown) {
      if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return;
      const found: FieldErrors<F> = {};
      for (const [key, messages] of Object.entries(error.details ?? {})) {
        const field = fieldOfDetail(key) as F;
        if (field in values && messages[0] !== undefined) found[field] ??= messages[0];
      }
      setErrors(found);
    },
  };
}

export type OrgForm<F extends string> = ReturnType<typeof useOrgForm<F>>;
