import { describe, expect, it } from 'vitest';
import { PacketBudget } from './packet-budget.ts';

describe('PacketBudget', () => {
  it('allows the burst at once, then the sustained rate, and refuses what goes beyond', () => {
    let now = 0;
    const budget = new PacketBudget(10, 5, () => now);
    for (let i = 0; i < 5; i++) expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
    now += 100; // one packet's worth at 10/s
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
  });

  it('refills up to the burst, never beyond', () => {
    let now = 0;
    const budget = new PacketBudget(10, 5, () => now);
    now += 60_000;
    let taken = 0;
    while (budget.take()) taken++;
    expect(taken).toBe(5);
  });
});
