import { PASSWORD_MIN_LENGTH } from './constants.ts';

/** The spec's validation messages, word for word (core §5, fleet §5). Free of zod, so the login page can use them. */
export const MESSAGES = {
  required: 'This field is required',
  apiName: 'The field may contain alpha-numeric characters as well as underscores',
  passwordMin: `The password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordConfirm: 'The password confirmation does not match',
  email: 'The e-mail address is not valid',
  deviceId: 'Has to be a 12 hex lower case digit string (eg "240ac40a2e48")',
  loraDevEui: 'Has to be a 16 hex lower case digit string (eg "240ac40a2e48ab3a")',
  lteImsi: 'Has to be a 4 to 16 decimal digit string (eg "23432")',
  json: 'Is not valid JSON',
  devicePath: 'Invalid device path format',
  // Fleet §5 names these rules without their messages; ours (docs/decisions.md).
  numeric: 'Has to be a number',
  latitude: 'Has to be a latitude from -90 to 90 with at most 18 decimals',
  longitude: 'Has to be a longitude from -180 to 180 with at most 18 decimals',
  capacity: 'Has to be a whole number from 1 to 100000',
} as const;
