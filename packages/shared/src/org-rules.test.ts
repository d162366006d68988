import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import { jsonInfo } from './schemas/place.ts';
import {
  floorError,
  jsonValueError,
  latitudeError,
  longitudeError,
  parseJsonText,
  streetNumberError,
} from './org-rules.ts';

describe('fleet §5 rules for places', () => {
  it('takes latitudes -90..90 and longitudes -180..180 with up to 18 decimals', () => {
    for (const ok of ['90', '-90', '0', '52.520008123456789012', 45.5]) expect(latitudeError(ok)).toBeNull();
    for (const bad of ['90.1', '-91', '1.1234567890123456789', 'north', '', '1e3', Number.NaN]) {
      expect(latitudeError(bad)).toBe(MESSAGES.latitude);
    }
    expect(longitudeError('-180.000000000000000000')).toBeNull();
    expect(longitudeError('180.5')).toBe(MESSAGES.longitude);
  });

  it('wants street numbers and floors numeric', () => {
    expect(streetNumberError('77')).toBeNull();
    expect(streetNumberError('7a')).toBe(MESSAGES.numeric);
    expect(floorError('-2')).toBeNull();
    expect(floorError(3)).toBeNull();
    expect(floorError('two')).toBe(MESSAGES.numeric);
  });

  it("parses JSON infos: empty is none, bad is 'Is not valid JSON', over 100000 bytes is too big", () => {
    expect(parseJsonText('  ')).toEqual({ ok: true, value: null });
    expect(parseJsonText('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonText('{a:1}')).toEqual({ ok: false, error: 'Is not valid JSON' });
    // 'é' is two bytes: 50,001 of them pass the character count but not the byte limit.
    expect(parseJsonText(`"${'é'.repeat(50_000)}"`)).toEqual({
      ok: false,
      error: 'File is too big. Only files up to 100000 Bytes are allowed.',
    });
  });

  it('holds a JSON info sent as a value to the same 100000 bytes, measured serialised', () => {
    const tooBig = 'File is too big. Only files up to 100000 Bytes are allowed.';
    // {"a":"…"} is 8 bytes around the text: 99,992 characters fit exactly, one more does not.
    expect(jsonValueError({ a: 'x'.repeat(99_992) })).toBeNull();
    expect(jsonValueError({ a: 'x'.repeat(99_993) })).toBe(tooBig);
    expect(jsonValueError([{ a: 'é'.repeat(25_000) }, { b: 'é'.repeat(25_000) }])).toBe(tooBig);
    const schema = jsonInfo();
    const value = { rows: Array.from({ length: 20_000 }, (_, i) => ({ i })) };
    expect(schema.safeParse(value).error?.issues[0]?.message).toBe(tooBig);
    expect(schema.safeParse(JSON.stringify(value)).error?.issues[0]?.message).toBe(tooBig);
    expect(schema.safeParse({ rows: [1, 2] }).data).toEqual({ rows: [1, 2] });
  });
});
