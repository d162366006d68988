import { describe, expect, it } from 'vitest';
import { batteryBand } from './constants.ts';

describe('battery bands (core §9)', () => {
  it.each([
    [100, 'High'],
    [76, 'High'],
    [75, 'Medium'],
    [51, 'Medium'],
    [50, 'Low'],
    [0, 'Low'],
  ])('%d%% is %s', (percent, band) => {
    expect(batteryBand(percent)).toBe(band);
  });
});
