import { describe, expect, it } from 'vitest';
import { loginPathFor, postLoginPath, sanitizeRedirect } from './redirect-target.ts';

describe('sanitizeRedirect', () => {
  it('keeps same-origin paths with search and hash', () => {
    expect(sanitizeRedirect('/device')).toBe('/device');
    expect(sanitizeRedirect('/device/abc/allocate?tab=2&x=%2F#files')).toBe('/device/abc/allocate?tab=2&x=%2F#files');
    expect(sanitizeRedirect('/')).toBe('/');
  });

  it.each([
    null,
    undefined,
    '',
    'device',
    'https://evil.example/',
    'javascript:alert(1)',
    '//evil.example/path',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    ' /device',
    '/device\n',
    '/\t/evil.example',
    '/auth/login',
    '/auth/login?redirect=%2Fdevice',
    '/x'.repeat(2000),
  ])('refuses %j', (raw) => {
    expect(sanitizeRedirect(raw)).toBeNull();
  });

  it('normalises dot segments without leaving the origin', () => {
    expect(sanitizeRedirect('/a/../device')).toBe('/device');
    expect(sanitizeRedirect('/..//evil.example')).toBeNull();
    expect(sanitizeRedirect('/./device/../site')).toBe('/site');
  });
});

describe('loginPathFor', () => {
  it('encodes the full target', () => {
    expect(loginPathFor('/device/a b?x=1&y=2#h')).toBe('/auth/login');
    expect(loginPathFor('/device/a%20b?x=1&y=2#h')).toBe(
      `/auth/login?redirect=${encodeURIComponent('/device/a%20b?x=1&y=2#h')}`,
    );
  });

  it('drops "/" and unsafe targets', () => {
    expect(loginPathFor('/')).toBe('/auth/login');
    expect(loginPathFor('//evil.example')).toBe('/auth/login');
  });
});

describe('postLoginPath', () => {
  it('prefers a safe redirect target', () => {
    expect(postLoginPath('/site/s1', { subtype: 'admin' })).toBe('/site/s1');
    expect(postLoginPath('/sdevices', { subtype: 'sadmin' })).toBe('/sdevices');
  });

  it('otherwise sends landlords to /entity and everyone else to /account', () => {
    expect(postLoginPath(null, { subtype: 'sadmin' })).toBe('/entity');
    expect(postLoginPath(null, { subtype: 'developer' })).toBe('/account');
    expect(postLoginPath('https://evil.example', { subtype: 'sadmin' })).toBe('/entity');
    expect(postLoginPath('//evil.example', { subtype: 'admin' })).toBe('/account');
  });
});
