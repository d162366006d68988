import { describe, expect, it } from 'vitest';
import { rareParts, searchParts } from './search-parts.ts';

describe('searchParts', () => {
  it('answers each word with the character on either side, as pg_trgm pads it', () => {
    expect(searchParts('unit_42')).toEqual(['unit_', '_42']);
    expect(searchParts('Wrong pass')).toEqual(['Wrong ', ' pass']);
    expect(searchParts('device.update')).toEqual(['device.', '.update']);
    expect(searchParts('ab_x')).toEqual(['ab_', '_x']);
  });

  it('leaves out a word that yields no trigram alone, and repeats', () => {
    // "42" alone pads to "42", "a" before "-" to "a ": no trigram; "c" after "-" pads to "  c".
    expect(searchParts('42')).toEqual([]);
    expect(searchParts('a-b-c')).toEqual(['-b-', '-c']);
    expect(searchParts('lobby lobby')).toEqual(['lobby ', ' lobby']);
    expect(searchParts('%_')).toEqual([]);
  });
});

describe('rareParts', () => {
  it('keeps the parts found in at most a tenth of the sample', () => {
    expect(rareParts(['unit_', '_42'], [200, 6], 200)).toEqual(['_42']);
    expect(rareParts(['a ', ' b', ' c'], [21, 20, 0], 200)).toEqual([' b', ' c']);
  });

  it('answers null when every part is rare: the whole search reads as well', () => {
    expect(rareParts(['Wrong ', ' pass'], [5, 5], 200)).toBeNull();
    expect(rareParts(['x_', '_y'], [0, 0], 0)).toBeNull();
  });

  it('keeps the rarest, the longest of equals, when every part is common', () => {
    expect(rareParts(['device.', '.update'], [200, 40], 200)).toEqual(['.update']);
    expect(rareParts(['ab_', '_abc'], [100, 100], 200)).toEqual(['_abc']);
  });
});
