import { describe, expect, it } from 'vitest';
import { PriorityLane } from './priority-lane.ts';

/** A lane whose callers record the order they got a slot in; `done()` gives the oldest holder's slot back. */
function recorded(slots: number, burst?: number) {
  const lane = new PriorityLane(slots, burst);
  const order: string[] = [];
  return {
    lane,
    order,
    ask: (name: string, interactive: boolean) => lane.acquire(interactive, () => order.push(name)),
    done: (times = 1) => {
      for (let i = 0; i < times; i++) lane.release();
    },
  };
}

describe('the priority lane in front of the database connections', () => {
  it('gives a free slot at once, and the next slot to a waiting request before older background work', () => {
    const l = recorded(1);
    l.ask('sweep', false);
    expect(l.order).toEqual(['sweep']);
    l.ask('reply 1', false);
    l.ask('reply 2', false);
    l.ask('GET device', true);
    expect(l.lane.waiting).toEqual({ interactive: 1, background: 2 });
    l.done(3);
    expect(l.order).toEqual(['sweep', 'GET device', 'reply 1', 'reply 2']);
  });

  it('serves each lane first come first served', () => {
    const l = recorded(1);
    l.ask('holder', false);
    for (const n of ['b1', 'b2', 'b3']) l.ask(n, false);
    for (const n of ['i1', 'i2']) l.ask(n, true);
    l.done(5);
    expect(l.order).toEqual(['holder', 'i1', 'i2', 'b1', 'b2', 'b3']);
  });

  it('lets background work through after `burst` interactive grants in a row, so it is never starved', () => {
    const l = recorded(1, 2);
    l.ask('holder', false);
    l.ask('b1', false);
    l.ask('b2', false);
    for (let i = 1; i <= 5; i++) l.ask(`i${i}`, true);
    l.done(7);
    expect(l.order).toEqual(['holder', 'i1', 'i2', 'b1', 'i3', 'i4', 'b2', 'i5']);
  });

  it('counts the burst only while background work waits', () => {
    const l = recorded(1, 2);
    l.ask('holder', true);
    l.ask('i1', true);
    l.ask('i2', true);
    l.done(2);
    // Two interactive grants went by with nobody else waiting; background work arriving now still waits its turn of two.
    l.ask('b1', false);
    for (const n of ['i3', 'i4', 'i5']) l.ask(n, true);
    l.done(4);
    expect(l.order).toEqual(['holder', 'i1', 'i2', 'i3', 'i4', 'b1', 'i5']);
  });

  it('hands out as many slots as it has, and a slot given back with nobody waiting is free again', () => {
    const l = recorded(2);
    l.ask('a', false);
    l.ask('b', true);
    l.ask('c', false);
    expect(l.order).toEqual(['a', 'b']);
    l.done(3);
    expect(l.order).toEqual(['a', 'b', 'c']);
    expect(l.lane.waiting).toEqual({ interactive: 0, background: 0 });
    l.ask('d', false);
    l.ask('e', true);
    expect(l.order).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps its order over thousands of waiting callers', () => {
    const l = recorded(1, 4);
    l.ask('holder', false);
    for (let i = 0; i < 5000; i++) l.ask(`b${i}`, false);
    l.done(2500);
    l.ask('GET', true);
    l.done(1);
    expect(l.order.at(-1)).toBe('GET');
    l.done(2501);
    expect(l.order.slice(-2)).toEqual(['b4998', 'b4999']);
    expect(l.order).toHaveLength(5002);
  });
});
