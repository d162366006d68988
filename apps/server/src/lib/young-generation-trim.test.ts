import v8 from 'node:v8';
import { expect, test } from 'vitest';
import { trimYoungGenerationWhenQuiet } from './young-generation-trim.ts';

const youngBytes = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

test('a quiet process gets its grown young generation back', async () => {
  // Objects that live through scavenges make V8 grow the young generation, as start-up does.
  const keep: object[] = [];
  for (let i = 0; i < 2_000_000 && youngBytes() <= 8 * 1024 * 1024; i++) {
    keep.push({ i, s: `x${i}` });
    if (keep.length > 100_000) keep.length = 0;
  }
  keep.length = 0;
  expect(youngBytes()).toBeGreaterThan(8 * 1024 * 1024);
  const stop = trimYoungGenerationWhenQuiet(50);
  try {
    const deadline = Date.now() + 10_000;
    while (youngBytes() > 4 * 1024 * 1024 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(youngBytes()).toBeLessThanOrEqual(4 * 1024 * 1024);
  } finally {
    stop();
  }
});
