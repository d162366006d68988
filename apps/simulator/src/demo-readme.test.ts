import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PATIENT_COUNT, DEMO_ROOMS } from './demo-beacons.ts';
import { DEMO_DATAVIEWS } from './demo-dataviews.ts';
import { DEMO_DEVICE_COUNT, DEMO_SILENT_DEVICES } from './demo-fleet.ts';
import { DEMO_GROUPS, DEMO_KIOSKS, DEMO_SITES } from './demo-org.ts';

const readme = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');
/** The README's Demo section, its line breaks as spaces. */
const demo = readme
  .slice(readme.indexOf('## Demo'), readme.indexOf('\n## ', readme.indexOf('## Demo') + 1))
  .replace(/\s+/g, ' ');
const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const word = (n: number) => WORDS[n] ?? String(n);

/** Groups that get devices when `npm run demo` fills them in order (demo-org.ts). */
function filledGroups(): number {
  let left = DEMO_DEVICE_COUNT;
  let filled = 0;
  for (const g of DEMO_GROUPS) {
    if (left > 0) filled += 1;
    left -= g.capacity;
  }
  return filled;
}

describe("the README's demo counts (issue 25)", () => {
  it('say what `npm run demo` sets up', () => {
    const gateways = DEMO_ROOMS.length;
    const simulated = DEMO_DEVICE_COUNT - DEMO_SILENT_DEVICES;
    for (const phrase of [
      `${word(DEMO_SITES.length)} sites`,
      `${word(DEMO_KIOSKS.length)} kiosks`,
      `${word(DEMO_GROUPS.length)} groups (${word(filledGroups())} holding the dispensers`,
      `${word(DEMO_DATAVIEWS.length)} laid-out dataviews`,
      `${DEMO_DEVICE_COUNT + gateways} devices: ${DEMO_DEVICE_COUNT} dispensers in those ${word(filledGroups())} groups`,
      `${simulated} of them simulated over MQTT`,
      `The other ${DEMO_SILENT_DEVICES} do not connect`,
      `The other ${gateways} devices are beacon gateways`,
      `${word(DEMO_PATIENT_COUNT)} patients`,
    ]) {
      expect(demo, phrase).toContain(phrase);
    }
  });
});
