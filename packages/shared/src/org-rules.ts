import { FILE_LIMITS, fileTooBig } from './constants.ts';
import { MESSAGES } from './messages.ts';

/**
 * The fleet §5 rules for places and their JSON infos, free of zod so forms and the server share
 * them word for word. Each answers the spec's message, or null when the value passes.
 */

const DECIMAL = /^[+-]?\d{1,3}(\.\d{1,18})?$/;

function coordinate(value: string | number, max: number, message: string): string | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  // Numbers as JSON carries them may print in exponent form (1e-7); their value is what counts.
  if (typeof value === 'number' ? !Number.isFinite(value) : !DECIMAL.test(text)) return message;
  return Math.abs(Number(text)) <= max ? null : message;
}

/** Latitude -90..90, up to 18 decimals. */
export const latitudeError = (v: string | number) => coordinate(v, 90, MESSAGES.latitude);
/** Longitude -180..180, up to 18 decimals. */
export const longitudeError = (v: string | number) => coordinate(v, 180, MESSAGES.longitude);

/** Street number: digits only. */
export const streetNumberError = (v: string) => (/^\d{1,10}$/.test(v.trim()) ? null : MESSAGES.numeric);

/** Floor: a whole number; basements are negative. */
export const floorError = (v: string | number) => (/^-?\d{1,4}$/.test(String(v).trim()) ? null : MESSAGES.numeric);

/** Bytes of a text in UTF-8 (the package runs where TextEncoder's types are not declared). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

export type JsonText = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * A JSON info sent as a value rather than text: its serialised form counts against the same
 * 100000-byte limit, so the form it travels in never changes what may be stored.
 */
export function jsonValueError(value: unknown): string | null {
  const text = JSON.stringify(value) ?? '';
  return utf8Length(text) > FILE_LIMITS.jsonInfo ? fileTooBig(FILE_LIMITS.jsonInfo) : null;
}

/**
 * A JSON info text (network, global, alloc, unalloc info): empty is no value; otherwise it must
 * parse ('Is not valid JSON') and stay within the 100000-byte text limit.
 */
export function parseJsonText(text: string): JsonText {
  if (text.trim() === '') return { ok: true, value: null };
  if (utf8Length(text) > FILE_LIMITS.jsonInfo) {
    return { ok: false, error: fileTooBig(FILE_LIMITS.jsonInfo) };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: MESSAGES.json };
  }
}
