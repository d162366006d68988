import { describe, expect, it } from 'vitest';
import { screenFailure } from './screen-failure.ts';

const chromium = new TypeError('Failed to fetch dynamically imported module: http://x/assets/device-list-page.js');
const safari = new TypeError('Importing a module script failed.');

describe('screenFailure', () => {
  it('blames the connection for a screen whose code could not be fetched offline', () => {
    expect(screenFailure(chromium, false)).toBe('offline');
    expect(screenFailure(safari, false)).toBe('offline');
  });

  it('blames a new release for the same failure online', () => {
    expect(screenFailure(chromium, true)).toBe('stale');
  });

  it('calls anything else a crash, online or not', () => {
    expect(screenFailure(new TypeError("Cannot read properties of undefined (reading 'name')"), false)).toBe('crash');
    expect(screenFailure('thrown string', true)).toBe('crash');
  });
});
