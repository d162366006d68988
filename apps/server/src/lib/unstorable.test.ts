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

  it('names the field holding an unpaired surrogate, and accepts surrogate pairs', () => {
    expect(findUnstorable({ emoji: '😀', pair: '\ud83d\ude00', text: 'plain' })).toBeUndefined();
    for (const lone of ['\ud800', 'a\udfffb', 'x\ud83d', '\ude00y', '\ude00\ud83d']) {
      expect(findUnstorable({ document: { notes: lone } }), JSON.stringify(lone)).toEqual({
        path: 'document.notes',
        reason: 'surrogate',
      });
    }
    expect(findUnstorable({ list: [{ ['k\ud800']: 1 }] })).toEqual({ path: 'list.0', reason: 'surrogate' });
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
