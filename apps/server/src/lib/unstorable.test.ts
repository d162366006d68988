import { describe, expect, it } from 'vitest';
import { findUnstorable } from './unstorable.ts';

describe('findUnstorable', () => {
  it('accepts ordinary JSON, including the escaped text "\\u0000"', () => {
    expect(findUnstorable({ a: ['x', 1, null, { b: true }], c: '\\u0000' })).toBeUndefined();
  });

  it('names the field holding U+0000, in values and in keys', () => {
    expect(findUnstorable({ document: { description: 'a\u0000b' } })).toEqual({
      path: 'document.description',
      reason: 'nul',
    });
    expect(findUnstorable({ list: ['ok', 'n\u0000'] })).toEqual({ path: 'list.1', reason: 'nul' });
    expect(findUnstorable({ document: { 'k\u0000': 1 } })).toEqual({ path: 'document', reason: 'nul' });
    expect(findUnstorable('\u0000')).toEqual({ path: '', reason: 'nul' });
  });

  it('refuses nesting past the limit without overflowing its own stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorable(deep)?.reason).toBe('depth');
    let ok: unknown = 1;
    for (let i = 0; i < 64; i++) ok = { a: ok };
    expect(findUnstorable(ok)).toBeUndefined();
  });
});
