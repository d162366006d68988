import { MESSAGES } from '@fleet/shared/messages';
import { floorError, latitudeError, longitudeError, parseJsonText, streetNumberError } from '@fleet/shared/org-rules';
import { INFO_FIELDS, type InfoField } from '@fleet/shared/schemas/place';

/** Fleet §5 for the forms: the api-name rule. */
export function nameError(value: string): string | undefined {
  if (value.trim() === '') return MESSAGES.required;
  return /^[A-Za-z0-9_]+$/.test(value.trim()) ? undefined : MESSAGES.apiName;
}

/** Coordinates: both or neither (required when `required`), each within its range. */
export function coordinateErrors(lat: string, lon: string, required: boolean) {
  const errors: { latitude?: string; longitude?: string } = {};
  if (lat.trim() === '' && lon.trim() === '') {
    if (required) errors.latitude = errors.longitude = MESSAGES.required;
    return errors;
  }
  errors.latitude = lat.trim() === '' ? MESSAGES.required : (latitudeError(lat) ?? undefined);
  errors.longitude = lon.trim() === '' ? MESSAGES.required : (longitudeError(lon) ?? undefined);
  return errors;
}

/** The coordinates pair the API takes (as text, so no decimal is lost), or null when empty. */
export function coordinatesOf(lat: string, lon: string): [string, string] | null {
  return lat.trim() === '' ? null : [lat.trim(), lon.trim()];
}

export const numberError = (v: string) => (v.trim() === '' ? undefined : (streetNumberError(v) ?? undefined));
export const floorFieldError = (v: string) => (v.trim() === '' ? undefined : (floorError(v) ?? undefined));

/** 'Is not valid JSON' (or the size message) for each JSON info text that does not parse. */
export function infoErrors(values: Partial<Record<InfoField | 'configuration', string>>) {
  const errors: Partial<Record<InfoField | 'configuration', string>> = {};
  for (const field of [...INFO_FIELDS, 'configuration'] as const) {
    const text = values[field];
    if (text === undefined) continue;
    const parsed = parseJsonText(text);
    if (!parsed.ok) errors[field] = parsed.error;
  }
  return errors;
}

/** A stored JSON info as the text area shows it. */
export const infoText = (value: unknown) =>
  value === null || value === undefined ? '' : JSON.stringify(value, null, 2);

/** A form's text as the API takes it: null when empty. */
export const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** Only what changed, with an unchanged name dropped (fleet §5). */
export function changedOnly(next: Record<string, unknown>, before: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(next).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])),
  );
}
