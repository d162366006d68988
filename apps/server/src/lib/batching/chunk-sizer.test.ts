import { describe, expect, it } from 'vitest';
import { ChunkSizer } from './chunk-sizer.ts';

describe('ChunkSizer', () => {
  it('cuts the next statement to what fits the target after a long one, at most by half', () => {
    const s = new ChunkSizer({ initial: 250, min: 10, max: 250, targetMs: 10 });
    s.observe(250, 25); // 0.1 ms an item: 100 fit
    expect(s.size).toBe(125);
    s.observe(125, 12.5);
    expect(s.size).toBe(100);
  });

  it('never goes under min however slow a statement is, nor over max', () => {
    const s = new ChunkSizer({ initial: 40, min: 10, max: 50, targetMs: 10 });
    for (let i = 0; i < 5; i++) s.observe(s.size, 500);
    expect(s.size).toBe(10);
    for (let i = 0; i < 20; i++) s.observe(s.size, 0.1);
    expect(s.size).toBe(50);
  });

  it('grows by a quarter at most after a statement under half the target, and holds between', () => {
    const s = new ChunkSizer({ initial: 40, min: 10, max: 1000, targetMs: 10 });
    s.observe(40, 1);
    expect(s.size).toBe(50);
    s.observe(50, 7);
    expect(s.size).toBe(50);
  });

  it('learns nothing from a short statement that was short of items', () => {
    const s = new ChunkSizer({ initial: 100, min: 10, max: 1000, targetMs: 10 });
    s.observe(3, 0.5);
    expect(s.size).toBe(100);
    s.observe(3, 30); // but a small statement over the target still cuts
    expect(s.size).toBe(50);
  });
});
